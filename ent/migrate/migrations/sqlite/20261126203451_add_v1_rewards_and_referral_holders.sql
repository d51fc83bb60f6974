-- Create "referral_holders" table
CREATE TABLE `referral_holders` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `voucher_id` text NOT NULL, `campaign_id` text NOT NULL, `customer_id` text NOT NULL, `metadata` json NULL, PRIMARY KEY (`id`));
-- Create index "referralholder_project_id_voucher_id_customer_id" to table: "referral_holders"
CREATE UNIQUE INDEX `referralholder_project_id_voucher_id_customer_id` ON `referral_holders` (`project_id`, `voucher_id`, `customer_id`);
-- Create index "referralholder_project_id_voucher_id_created_at_id" to table: "referral_holders"
CREATE INDEX `referralholder_project_id_voucher_id_created_at_id` ON `referral_holders` (`project_id`, `voucher_id`, `created_at`, `id`);
-- Create "v1_rewards" table
CREATE TABLE `v1_rewards` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL, `parameters` json NOT NULL, `stock` integer NULL, `redeemed` integer NOT NULL DEFAULT (0), `attributes` json NOT NULL, `metadata` json NULL, `campaign_id` text NULL, `product_id` text NULL, PRIMARY KEY (`id`));
-- Create index "v1reward_project_id_created_at_id" to table: "v1_rewards"
CREATE INDEX `v1reward_project_id_created_at_id` ON `v1_rewards` (`project_id`, `created_at`, `id`);
-- Create "v1_reward_assignments" table
CREATE TABLE `v1_reward_assignments` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `reward_id` text NOT NULL, `campaign_id` text NOT NULL, `related_object_type` text NOT NULL DEFAULT ('campaign'), `points` integer NULL, `auto_redeem` bool NOT NULL DEFAULT (false), `validation_rules` json NULL, PRIMARY KEY (`id`));
-- Create index "v1rewardassignment_project_id_reward_id_campaign_id" to table: "v1_reward_assignments"
CREATE UNIQUE INDEX `v1rewardassignment_project_id_reward_id_campaign_id` ON `v1_reward_assignments` (`project_id`, `reward_id`, `campaign_id`);
-- Create index "v1rewardassignment_project_id_campaign_id_created_at" to table: "v1_reward_assignments"
CREATE INDEX `v1rewardassignment_project_id_campaign_id_created_at` ON `v1_reward_assignments` (`project_id`, `campaign_id`, `created_at`);
