-- Create "points_buckets" table
CREATE TABLE "points_buckets" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "voucher_id" character varying NULL, "card_id" character varying NULL, "campaign_id" character varying NULL, "customer_id" character varying NULL, "order_id" character varying NULL, "points" bigint NOT NULL, "status" character varying NOT NULL, "expires_at" timestamptz NULL, "activates_at" timestamptz NULL, "source" character varying NOT NULL DEFAULT 'POINTS_ADDITION', "details" jsonb NOT NULL, "expiration_rules" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "pointsbucket_campaign_id_status_id" to table: "points_buckets"
CREATE INDEX "pointsbucket_campaign_id_status_id" ON "points_buckets" ("campaign_id", "status", "id") WHERE (campaign_id IS NOT NULL);
-- Create index "pointsbucket_card_id_status_expires_at" to table: "points_buckets"
CREATE INDEX "pointsbucket_card_id_status_expires_at" ON "points_buckets" ("card_id", "status", "expires_at") WHERE (card_id IS NOT NULL);
-- Create index "pointsbucket_project_id" to table: "points_buckets"
CREATE INDEX "pointsbucket_project_id" ON "points_buckets" ("project_id");
-- Create index "pointsbucket_status_activates_at" to table: "points_buckets"
CREATE INDEX "pointsbucket_status_activates_at" ON "points_buckets" ("status", "activates_at");
-- Create index "pointsbucket_status_expires_at" to table: "points_buckets"
CREATE INDEX "pointsbucket_status_expires_at" ON "points_buckets" ("status", "expires_at");
-- Create index "pointsbucket_voucher_id_status_expires_at" to table: "points_buckets"
CREATE INDEX "pointsbucket_voucher_id_status_expires_at" ON "points_buckets" ("voucher_id", "status", "expires_at") WHERE (voucher_id IS NOT NULL);
