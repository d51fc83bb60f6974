-- Drop index "cardtransaction_card_id_created_at_id" from table: "card_transactions"
DROP INDEX "cardtransaction_card_id_created_at_id";
-- Create index "cardtransaction_card_id_created_at_id" to table: "card_transactions"
CREATE INDEX "cardtransaction_card_id_created_at_id" ON "card_transactions" ("card_id", "created_at", "id") INCLUDE ("project_id");
-- Drop index "asyncaction_project_id" from table: "async_actions"
DROP INDEX "asyncaction_project_id";
-- Create index "asyncaction_project_id_created_at_id" to table: "async_actions"
CREATE INDEX "asyncaction_project_id_created_at_id" ON "async_actions" ("project_id", "created_at", "id");
-- Drop index "export_project_id" from table: "exports"
DROP INDEX "export_project_id";
-- Create index "export_project_id_created_at_id" to table: "exports"
CREATE INDEX "export_project_id_created_at_id" ON "exports" ("project_id", "created_at", "id");
-- Create index "loyaltymember_customer_id" to table: "loyalty_members"
CREATE INDEX "loyaltymember_customer_id" ON "loyalty_members" ("customer_id");
-- Create index "loyaltymember_program_id_created_at_id" to table: "loyalty_members"
CREATE INDEX "loyaltymember_program_id_created_at_id" ON "loyalty_members" ("program_id", "created_at", "id") INCLUDE ("project_id");
-- Drop index "pointsbucket_card_id_status_expires_at" from table: "points_buckets"
DROP INDEX "pointsbucket_card_id_status_expires_at";
-- Create index "pointsbucket_card_id_status_expires_at_id" to table: "points_buckets"
CREATE INDEX "pointsbucket_card_id_status_expires_at_id" ON "points_buckets" ("card_id", "status", "expires_at", "id") WHERE (card_id IS NOT NULL);
-- Drop index "pointsbucket_voucher_id_status_expires_at" from table: "points_buckets"
DROP INDEX "pointsbucket_voucher_id_status_expires_at";
-- Create index "pointsbucket_voucher_id_status_expires_at_id" to table: "points_buckets"
CREATE INDEX "pointsbucket_voucher_id_status_expires_at_id" ON "points_buckets" ("voucher_id", "status", "expires_at", "id") INCLUDE ("project_id") WHERE (voucher_id IS NOT NULL);
-- Drop index "publication_customer_id_created_at_id" from table: "publications"
DROP INDEX "publication_customer_id_created_at_id";
-- Create index "publication_customer_id_created_at_id" to table: "publications"
CREATE INDEX "publication_customer_id_created_at_id" ON "publications" ("customer_id", "created_at", "id") INCLUDE ("project_id");
-- Drop index "webhookdelivery_webhook_id_created_at" from table: "webhook_deliveries"
DROP INDEX "webhookdelivery_webhook_id_created_at";
-- Create index "webhookdelivery_webhook_id_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_webhook_id_id" ON "webhook_deliveries" ("webhook_id", "id");
-- Create index "pointsbucket_pending_card_id_status_id" to table: "points_buckets"
CREATE INDEX "pointsbucket_pending_card_id_status_id" ON "points_buckets" ("card_id", "status", "id") WHERE (activates_at IS NOT NULL);
-- Create index "pointsbucket_pending_voucher_id_status_id" to table: "points_buckets"
CREATE INDEX "pointsbucket_pending_voucher_id_status_id" ON "points_buckets" ("voucher_id", "status", "id") WHERE (activates_at IS NOT NULL);
