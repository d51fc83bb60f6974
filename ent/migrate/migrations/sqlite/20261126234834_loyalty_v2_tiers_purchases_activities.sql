-- Add column "earning_rule_ids" to table: "loyalty_programs"
ALTER TABLE `loyalty_programs` ADD COLUMN `earning_rule_ids` json NULL;
-- Add column "tier_structure_ids" to table: "loyalty_programs"
ALTER TABLE `loyalty_programs` ADD COLUMN `tier_structure_ids` json NULL;
-- Create "loyalty_activities" table
CREATE TABLE `loyalty_activities` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `resource_type` text NOT NULL, `resource_id` text NOT NULL, `type` text NOT NULL, `data` json NOT NULL, `group_id` text NULL, `source` json NULL, PRIMARY KEY (`id`));
-- Create index "loyaltyactivity_project_id" to table: "loyalty_activities"
CREATE INDEX `loyaltyactivity_project_id` ON `loyalty_activities` (`project_id`);
-- Create index "loyaltyactivity_resource_id_created_at_id" to table: "loyalty_activities"
CREATE INDEX `loyaltyactivity_resource_id_created_at_id` ON `loyalty_activities` (`resource_id`, `created_at`, `id`);
-- Create "program_rewards" table
CREATE TABLE `program_rewards` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `program_id` text NOT NULL, `reward_id` text NOT NULL, `points` integer NOT NULL, `card_definition_id` text NOT NULL, `stock` integer NOT NULL, `redeemed` integer NOT NULL DEFAULT (0), `costs` json NULL, PRIMARY KEY (`id`));
-- Create index "programreward_project_id" to table: "program_rewards"
CREATE INDEX `programreward_project_id` ON `program_rewards` (`project_id`);
-- Create index "programreward_program_id_reward_id" to table: "program_rewards"
CREATE UNIQUE INDEX `programreward_program_id_reward_id` ON `program_rewards` (`program_id`, `reward_id`);
-- Create "reward_purchases" table
CREATE TABLE `reward_purchases` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `program_id` text NOT NULL, `member_id` text NOT NULL, `card_id` text NOT NULL, `reward_id` text NOT NULL, `card_transaction_id` text NOT NULL, `type` text NOT NULL, `status` text NOT NULL DEFAULT ('APPROVED'), `points` integer NOT NULL, `refund_of` text NULL, PRIMARY KEY (`id`));
-- Create index "rewardpurchase_project_id" to table: "reward_purchases"
CREATE INDEX `rewardpurchase_project_id` ON `reward_purchases` (`project_id`);
-- Create index "rewardpurchase_member_id_created_at_id" to table: "reward_purchases"
CREATE INDEX `rewardpurchase_member_id_created_at_id` ON `reward_purchases` (`member_id`, `created_at`, `id`);
-- Create index "rewardpurchase_refund_of" to table: "reward_purchases"
CREATE UNIQUE INDEX `rewardpurchase_refund_of` ON `reward_purchases` (`refund_of`);
-- Create "structure_tiers" table
CREATE TABLE `structure_tiers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `tier_structure_id` text NOT NULL, `name` text NOT NULL, `qualification_type` text NOT NULL DEFAULT ('POINTS'), `min_points` integer NULL, `max_points` integer NULL, `segment_id` text NULL, `downgrade_type` text NOT NULL DEFAULT ('INHERIT'), `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "structuretier_project_id" to table: "structure_tiers"
CREATE INDEX `structuretier_project_id` ON `structure_tiers` (`project_id`);
-- Create index "structuretier_tier_structure_id_min_points" to table: "structure_tiers"
CREATE INDEX `structuretier_tier_structure_id_min_points` ON `structure_tiers` (`tier_structure_id`, `min_points`);
-- Create "tier_structures" table
CREATE TABLE `tier_structures` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL, `card_definition_id` text NOT NULL, `status` text NOT NULL DEFAULT ('DRAFT'), `point_earned` json NULL, `expiration` json NULL, `downgrade` json NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "tierstructure_project_id" to table: "tier_structures"
CREATE INDEX `tierstructure_project_id` ON `tier_structures` (`project_id`);
-- Create index "tierstructure_card_definition_id" to table: "tier_structures"
CREATE INDEX `tierstructure_card_definition_id` ON `tier_structures` (`card_definition_id`);
-- Create "tier_transactions" table
CREATE TABLE `tier_transactions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `member_id` text NOT NULL, `program_id` text NOT NULL, `tier_structure_id` text NOT NULL, `from_tier_id` text NULL, `to_tier_id` text NULL, `type` text NOT NULL, `points` integer NOT NULL, `card_transaction_id` text NULL, PRIMARY KEY (`id`));
-- Create index "tiertransaction_project_id" to table: "tier_transactions"
CREATE INDEX `tiertransaction_project_id` ON `tier_transactions` (`project_id`);
-- Create index "tiertransaction_member_id_created_at_id" to table: "tier_transactions"
CREATE INDEX `tiertransaction_member_id_created_at_id` ON `tier_transactions` (`member_id`, `created_at`, `id`);
