-- Create index "customevent_customer_id_created_at_id" to table: "custom_events"
CREATE INDEX "customevent_customer_id_created_at_id" ON "custom_events" ("customer_id", "created_at", "id");
-- Create index "customer_project_id_created_at_id" to table: "customers"
CREATE INDEX "customer_project_id_created_at_id" ON "customers" ("project_id", "created_at", "id");
-- Create index "customer_project_id_email" to table: "customers"
CREATE INDEX "customer_project_id_email" ON "customers" ("project_id", "email") WHERE (email IS NOT NULL);
-- Create index "publication_campaign_id_created_at_id" to table: "publications"
CREATE INDEX "publication_campaign_id_created_at_id" ON "publications" ("campaign_id", "created_at", "id") WHERE (campaign_id IS NOT NULL);
-- Create index "publication_project_id_created_at_id" to table: "publications"
CREATE INDEX "publication_project_id_created_at_id" ON "publications" ("project_id", "created_at", "id");
-- Create index "redemption_campaign_id_created_at_id" to table: "redemptions"
CREATE INDEX "redemption_campaign_id_created_at_id" ON "redemptions" ("campaign_id", "created_at", "id") WHERE (campaign_id IS NOT NULL);
-- Create index "vouchertransaction_campaign_id_id" to table: "voucher_transactions"
CREATE INDEX "vouchertransaction_campaign_id_id" ON "voucher_transactions" ("campaign_id", "id") WHERE (campaign_id IS NOT NULL);
-- Create index "voucher_campaign_id_created_at_id" to table: "vouchers"
CREATE INDEX "voucher_campaign_id_created_at_id" ON "vouchers" ("campaign_id", "created_at", "id");
-- Create index "voucher_campaign_id_id" to table: "vouchers"
CREATE INDEX "voucher_campaign_id_id" ON "vouchers" ("campaign_id", "id");
-- Create index "voucher_holder_id" to table: "vouchers"
CREATE INDEX "voucher_holder_id" ON "vouchers" ("holder_id") WHERE (holder_id IS NOT NULL);
-- Create index "voucher_project_id_created_at_id" to table: "vouchers"
CREATE INDEX "voucher_project_id_created_at_id" ON "vouchers" ("project_id", "created_at", "id");
-- Create index "webhookevent_webhook_id_id" to table: "webhook_events"
CREATE INDEX "webhookevent_webhook_id_id" ON "webhook_events" ("webhook_id", "id");
