-- Create "referral_holders" table
CREATE TABLE "referral_holders" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "voucher_id" character varying NOT NULL, "campaign_id" character varying NOT NULL, "customer_id" character varying NOT NULL, "metadata" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "referralholder_project_id_voucher_id_created_at_id" to table: "referral_holders"
CREATE INDEX "referralholder_project_id_voucher_id_created_at_id" ON "referral_holders" ("project_id", "voucher_id", "created_at", "id");
-- Create index "referralholder_project_id_voucher_id_customer_id" to table: "referral_holders"
CREATE UNIQUE INDEX "referralholder_project_id_voucher_id_customer_id" ON "referral_holders" ("project_id", "voucher_id", "customer_id");
-- Create "v1_rewards" table
CREATE TABLE "v1_rewards" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL, "parameters" jsonb NOT NULL, "stock" bigint NULL, "redeemed" bigint NOT NULL DEFAULT 0, "attributes" jsonb NOT NULL, "metadata" jsonb NULL, "campaign_id" character varying NULL, "product_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "v1reward_project_id_created_at_id" to table: "v1_rewards"
CREATE INDEX "v1reward_project_id_created_at_id" ON "v1_rewards" ("project_id", "created_at", "id");
-- Create "v1_reward_assignments" table
CREATE TABLE "v1_reward_assignments" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "reward_id" character varying NOT NULL, "campaign_id" character varying NOT NULL, "related_object_type" character varying NOT NULL DEFAULT 'campaign', "points" bigint NULL, "auto_redeem" boolean NOT NULL DEFAULT false, "validation_rules" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "v1rewardassignment_project_id_campaign_id_created_at" to table: "v1_reward_assignments"
CREATE INDEX "v1rewardassignment_project_id_campaign_id_created_at" ON "v1_reward_assignments" ("project_id", "campaign_id", "created_at");
-- Create index "v1rewardassignment_project_id_reward_id_campaign_id" to table: "v1_reward_assignments"
CREATE UNIQUE INDEX "v1rewardassignment_project_id_reward_id_campaign_id" ON "v1_reward_assignments" ("project_id", "reward_id", "campaign_id");
