-- Drop index "voucher_campaign_id_created_at_id" from table: "vouchers"
DROP INDEX "voucher_campaign_id_created_at_id";
-- Create index "voucher_campaign_id_created_at_id" to table: "vouchers"
CREATE INDEX "voucher_campaign_id_created_at_id" ON "vouchers" ("campaign_id", "created_at", "id") INCLUDE ("project_id");
