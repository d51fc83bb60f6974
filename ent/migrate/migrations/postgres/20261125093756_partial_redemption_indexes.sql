-- Drop index "redemption_customer_id_voucher_id" from table: "redemptions"
DROP INDEX "redemption_customer_id_voucher_id";
-- Drop index "redemption_parent_id" from table: "redemptions"
DROP INDEX "redemption_parent_id";
-- Drop index "redemption_rolled_back_id_result" from table: "redemptions"
DROP INDEX "redemption_rolled_back_id_result";
-- Drop index "redemption_voucher_id_created_at" from table: "redemptions"
DROP INDEX "redemption_voucher_id_created_at";
-- Create index "redemption_customer_id_voucher_id" to table: "redemptions"
CREATE INDEX "redemption_customer_id_voucher_id" ON "redemptions" ("customer_id", "voucher_id") WHERE (customer_id IS NOT NULL);
-- Create index "redemption_parent_id" to table: "redemptions"
CREATE INDEX "redemption_parent_id" ON "redemptions" ("parent_id") WHERE (parent_id IS NOT NULL);
-- Create index "redemption_rolled_back_id_result" to table: "redemptions"
CREATE UNIQUE INDEX "redemption_rolled_back_id_result" ON "redemptions" ("rolled_back_id", "result") WHERE (rolled_back_id IS NOT NULL);
-- Create index "redemption_voucher_id_created_at" to table: "redemptions"
CREATE INDEX "redemption_voucher_id_created_at" ON "redemptions" ("voucher_id", "created_at") WHERE (voucher_id IS NOT NULL);
