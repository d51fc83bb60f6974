-- Create "referral_holders" table
CREATE TABLE "referral_holders" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "voucher_id" character varying NOT NULL, "campaign_id" character varying NOT NULL, "customer_id" character varying NOT NULL, "metadata" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "referralholder_project_id_voucher_id_created_at_id" to table: "referral_holders"
CREATE INDEX "referralholder_project_id_voucher_id_created_at_id" ON "referral_holders" ("project_id", "voucher_id", "created_at", "id");
-- Create index "referralholder_project_id_voucher_id_customer_id" to table: "referral_holders"
CREATE UNIQUE INDEX "referralholder_project_id_voucher_id_customer_id" ON "referral_holders" ("project_id", "voucher_id", "customer_id");
