-- Modify "loyalty_programs" table
ALTER TABLE "loyalty_programs" ADD COLUMN "earning_rule_ids" jsonb NULL, ADD COLUMN "tier_structure_ids" jsonb NULL;
-- Create "loyalty_activities" table
CREATE TABLE "loyalty_activities" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "resource_type" character varying NOT NULL, "resource_id" character varying NOT NULL, "type" character varying NOT NULL, "data" jsonb NOT NULL, "group_id" character varying NULL, "source" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "loyaltyactivity_project_id" to table: "loyalty_activities"
CREATE INDEX "loyaltyactivity_project_id" ON "loyalty_activities" ("project_id");
-- Create index "loyaltyactivity_resource_id_created_at_id" to table: "loyalty_activities"
CREATE INDEX "loyaltyactivity_resource_id_created_at_id" ON "loyalty_activities" ("resource_id", "created_at", "id");
-- Create "program_rewards" table
CREATE TABLE "program_rewards" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "program_id" character varying NOT NULL, "reward_id" character varying NOT NULL, "points" bigint NOT NULL, "card_definition_id" character varying NOT NULL, "stock" bigint NOT NULL, "redeemed" bigint NOT NULL DEFAULT 0, "costs" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "programreward_program_id_reward_id" to table: "program_rewards"
CREATE UNIQUE INDEX "programreward_program_id_reward_id" ON "program_rewards" ("program_id", "reward_id");
-- Create index "programreward_project_id" to table: "program_rewards"
CREATE INDEX "programreward_project_id" ON "program_rewards" ("project_id");
-- Create "reward_purchases" table
CREATE TABLE "reward_purchases" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "program_id" character varying NOT NULL, "member_id" character varying NOT NULL, "card_id" character varying NOT NULL, "reward_id" character varying NOT NULL, "card_transaction_id" character varying NOT NULL, "type" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'APPROVED', "points" bigint NOT NULL, "refund_of" character varying NULL, PRIMARY KEY ("id"));
-- Create index "rewardpurchase_member_id_created_at_id" to table: "reward_purchases"
CREATE INDEX "rewardpurchase_member_id_created_at_id" ON "reward_purchases" ("member_id", "created_at", "id");
-- Create index "rewardpurchase_project_id" to table: "reward_purchases"
CREATE INDEX "rewardpurchase_project_id" ON "reward_purchases" ("project_id");
-- Create index "rewardpurchase_refund_of" to table: "reward_purchases"
CREATE UNIQUE INDEX "rewardpurchase_refund_of" ON "reward_purchases" ("refund_of");
-- Create "structure_tiers" table
CREATE TABLE "structure_tiers" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "tier_structure_id" character varying NOT NULL, "name" character varying NOT NULL, "qualification_type" character varying NOT NULL DEFAULT 'POINTS', "min_points" bigint NULL, "max_points" bigint NULL, "segment_id" character varying NULL, "downgrade_type" character varying NOT NULL DEFAULT 'INHERIT', "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "structuretier_project_id" to table: "structure_tiers"
CREATE INDEX "structuretier_project_id" ON "structure_tiers" ("project_id");
-- Create index "structuretier_tier_structure_id_min_points" to table: "structure_tiers"
CREATE INDEX "structuretier_tier_structure_id_min_points" ON "structure_tiers" ("tier_structure_id", "min_points");
-- Create "tier_structures" table
CREATE TABLE "tier_structures" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL, "card_definition_id" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'DRAFT', "point_earned" jsonb NULL, "expiration" jsonb NULL, "downgrade" jsonb NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "tierstructure_card_definition_id" to table: "tier_structures"
CREATE INDEX "tierstructure_card_definition_id" ON "tier_structures" ("card_definition_id");
-- Create index "tierstructure_project_id" to table: "tier_structures"
CREATE INDEX "tierstructure_project_id" ON "tier_structures" ("project_id");
-- Create "tier_transactions" table
CREATE TABLE "tier_transactions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "member_id" character varying NOT NULL, "program_id" character varying NOT NULL, "tier_structure_id" character varying NOT NULL, "from_tier_id" character varying NULL, "to_tier_id" character varying NULL, "type" character varying NOT NULL, "points" bigint NOT NULL, "card_transaction_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "tiertransaction_member_id_created_at_id" to table: "tier_transactions"
CREATE INDEX "tiertransaction_member_id_created_at_id" ON "tier_transactions" ("member_id", "created_at", "id");
-- Create index "tiertransaction_project_id" to table: "tier_transactions"
CREATE INDEX "tiertransaction_project_id" ON "tier_transactions" ("project_id");
