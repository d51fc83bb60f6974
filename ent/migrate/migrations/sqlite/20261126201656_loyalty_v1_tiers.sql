-- Create "loyalty_tiers" table
CREATE TABLE `loyalty_tiers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `campaign_id` text NOT NULL, `name` text NOT NULL, `points_from` integer NULL, `points_to` integer NULL, `earning_rules` json NOT NULL, `rewards` json NOT NULL, `metadata` json NULL, PRIMARY KEY (`id`));
-- Create index "loyaltytier_project_id" to table: "loyalty_tiers"
CREATE INDEX `loyaltytier_project_id` ON `loyalty_tiers` (`project_id`);
-- Create index "loyaltytier_campaign_id_created_at" to table: "loyalty_tiers"
CREATE INDEX `loyaltytier_campaign_id_created_at` ON `loyalty_tiers` (`campaign_id`, `created_at`);
