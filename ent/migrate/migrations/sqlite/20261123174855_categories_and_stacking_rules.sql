-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Data: before categories existed, category_id held whatever the client sent and names
-- no category; clear it so the foreign key holds (the name stays in "category").
UPDATE `campaigns` SET `category_id` = NULL WHERE `category_id` IS NOT NULL;
-- Create "new_campaigns" table
CREATE TABLE `new_campaigns` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `campaign_type` text NOT NULL, `type` text NOT NULL, `auto_join` bool NOT NULL DEFAULT (false), `join_once` bool NOT NULL DEFAULT (false), `use_voucher_metadata_schema` bool NOT NULL DEFAULT (true), `creation_status` text NOT NULL DEFAULT ('DONE'), `vouchers_generation_status` text NOT NULL DEFAULT ('DONE'), `protected` bool NOT NULL DEFAULT (false), `category` text NULL, `voucher` json NULL, `validity_timeframe` json NULL, `validity_day_of_week` json NULL, `validity_hours` json NULL, `activity_duration_after_publishing` text NULL, `vouchers_count` integer NOT NULL DEFAULT (0), `start_date` datetime NULL, `expiration_date` datetime NULL, `active` bool NOT NULL DEFAULT (true), `metadata` json NOT NULL, `referral_program` json NULL, `loyalty_tiers_expiration` json NULL, `promotion` json NULL, `category_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `campaigns_categories_campaigns` FOREIGN KEY (`category_id`) REFERENCES `categories` (`id`) ON DELETE SET NULL);
-- Copy rows from old table "campaigns" to new temporary table "new_campaigns"
INSERT INTO `new_campaigns` (`id`, `project_id`, `created_at`, `updated_at`, `name`, `description`, `campaign_type`, `type`, `auto_join`, `join_once`, `use_voucher_metadata_schema`, `creation_status`, `vouchers_generation_status`, `protected`, `category`, `voucher`, `validity_timeframe`, `validity_day_of_week`, `validity_hours`, `activity_duration_after_publishing`, `vouchers_count`, `start_date`, `expiration_date`, `active`, `metadata`, `referral_program`, `loyalty_tiers_expiration`, `promotion`, `category_id`) SELECT `id`, `project_id`, `created_at`, `updated_at`, `name`, `description`, `campaign_type`, `type`, `auto_join`, `join_once`, `use_voucher_metadata_schema`, `creation_status`, `vouchers_generation_status`, `protected`, `category`, `voucher`, `validity_timeframe`, `validity_day_of_week`, `validity_hours`, `activity_duration_after_publishing`, `vouchers_count`, `start_date`, `expiration_date`, `active`, `metadata`, `referral_program`, `loyalty_tiers_expiration`, `promotion`, `category_id` FROM `campaigns`;
-- Drop "campaigns" table after copying rows
DROP TABLE `campaigns`;
-- Rename temporary table "new_campaigns" to "campaigns"
ALTER TABLE `new_campaigns` RENAME TO `campaigns`;
-- Create index "campaign_project_id_name" to table: "campaigns"
CREATE UNIQUE INDEX `campaign_project_id_name` ON `campaigns` (`project_id`, `name`);
-- Add column "stacking_rules" to table: "projects"
ALTER TABLE `projects` ADD COLUMN `stacking_rules` json NULL;
-- Create "categories" table
CREATE TABLE `categories` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `hierarchy` integer NOT NULL, PRIMARY KEY (`id`));
-- Create index "category_project_id_name" to table: "categories"
CREATE UNIQUE INDEX `category_project_id_name` ON `categories` (`project_id`, `name`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
