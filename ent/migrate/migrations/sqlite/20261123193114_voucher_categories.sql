-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Data: before vouchers had a category edge, category_id held whatever the client sent;
-- keep it only where it names a category of the voucher's project, else link the
-- category named by the voucher's category tag, if any (the tag itself stays).
UPDATE `vouchers` SET `category_id` = NULL WHERE `category_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `categories` AS c WHERE c.`id` = `vouchers`.`category_id` AND c.`project_id` = `vouchers`.`project_id`);
UPDATE `vouchers` SET `category_id` = (SELECT c.`id` FROM `categories` AS c WHERE c.`project_id` = `vouchers`.`project_id` AND c.`name` = `vouchers`.`category`) WHERE `category_id` IS NULL AND `category` IS NOT NULL;
-- Create "new_vouchers" table
CREATE TABLE `new_vouchers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `code` text NOT NULL, `type` text NOT NULL, `category` text NULL, `discount` json NULL, `gift` json NULL, `loyalty_card` json NULL, `start_date` datetime NULL, `expiration_date` datetime NULL, `validity_timeframe` json NULL, `validity_day_of_week` json NULL, `validity_hours` json NULL, `active` bool NOT NULL DEFAULT (true), `additional_info` text NULL, `metadata` json NOT NULL, `is_referral_code` bool NOT NULL DEFAULT (false), `holder_id` text NULL, `referrer_id` text NULL, `publish_count` integer NOT NULL DEFAULT (0), `redemption_quantity` integer NULL, `redeemed_quantity` integer NOT NULL DEFAULT (0), `redeemed_points` integer NOT NULL DEFAULT (0), `campaign_id` text NULL, `category_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `vouchers_campaigns_vouchers` FOREIGN KEY (`campaign_id`) REFERENCES `campaigns` (`id`) ON DELETE SET NULL, CONSTRAINT `vouchers_categories_vouchers` FOREIGN KEY (`category_id`) REFERENCES `categories` (`id`) ON DELETE SET NULL);
-- Copy rows from old table "vouchers" to new temporary table "new_vouchers"
INSERT INTO `new_vouchers` (`id`, `project_id`, `created_at`, `updated_at`, `code`, `type`, `category`, `discount`, `gift`, `loyalty_card`, `start_date`, `expiration_date`, `validity_timeframe`, `validity_day_of_week`, `validity_hours`, `active`, `additional_info`, `metadata`, `is_referral_code`, `holder_id`, `referrer_id`, `publish_count`, `redemption_quantity`, `redeemed_quantity`, `redeemed_points`, `campaign_id`, `category_id`) SELECT `id`, `project_id`, `created_at`, `updated_at`, `code`, `type`, `category`, `discount`, `gift`, `loyalty_card`, `start_date`, `expiration_date`, `validity_timeframe`, `validity_day_of_week`, `validity_hours`, `active`, `additional_info`, `metadata`, `is_referral_code`, `holder_id`, `referrer_id`, `publish_count`, `redemption_quantity`, `redeemed_quantity`, `redeemed_points`, `campaign_id`, `category_id` FROM `vouchers`;
-- Drop "vouchers" table after copying rows
DROP TABLE `vouchers`;
-- Rename temporary table "new_vouchers" to "vouchers"
ALTER TABLE `new_vouchers` RENAME TO `vouchers`;
-- Create index "voucher_project_id_code" to table: "vouchers"
CREATE UNIQUE INDEX `voucher_project_id_code` ON `vouchers` (`project_id`, `code`);
-- Create index "voucher_campaign_id_publish_count_id" to table: "vouchers"
CREATE INDEX `voucher_campaign_id_publish_count_id` ON `vouchers` (`campaign_id`, `publish_count`, `id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
