-- Create "campaign_earning_rules" table
CREATE TABLE `campaign_earning_rules` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `campaign_id` text NOT NULL, `event` text NOT NULL, `loyalty` json NOT NULL, `custom_event` json NULL, `segment` json NULL, `loyalty_tier` json NULL, `pending_points` json NULL, `expiration_rules` json NULL, `source` json NULL, `validity_timeframe` json NULL, `validity_day_of_week` json NULL, `validity_hours` json NULL, `active` bool NOT NULL DEFAULT (true), `validation_rule_id` text NULL, `start_date` datetime NULL, `expiration_date` datetime NULL, `automation_id` text NOT NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "campaignearningrule_project_id" to table: "campaign_earning_rules"
CREATE INDEX `campaignearningrule_project_id` ON `campaign_earning_rules` (`project_id`);
-- Create index "campaignearningrule_campaign_id_created_at" to table: "campaign_earning_rules"
CREATE INDEX `campaignearningrule_campaign_id_created_at` ON `campaign_earning_rules` (`campaign_id`, `created_at`);
-- Create index "campaignearningrule_event_active" to table: "campaign_earning_rules"
CREATE INDEX `campaignearningrule_event_active` ON `campaign_earning_rules` (`event`, `active`);
-- Create "loyalty_tiers" table
CREATE TABLE `loyalty_tiers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `campaign_id` text NOT NULL, `name` text NOT NULL, `points_from` integer NULL, `points_to` integer NULL, `earning_rules` json NOT NULL, `rewards` json NOT NULL, `metadata` json NULL, PRIMARY KEY (`id`));
-- Create index "loyaltytier_project_id" to table: "loyalty_tiers"
CREATE INDEX `loyaltytier_project_id` ON `loyalty_tiers` (`project_id`);
-- Create index "loyaltytier_campaign_id_created_at" to table: "loyalty_tiers"
CREATE INDEX `loyaltytier_campaign_id_created_at` ON `loyalty_tiers` (`campaign_id`, `created_at`);
