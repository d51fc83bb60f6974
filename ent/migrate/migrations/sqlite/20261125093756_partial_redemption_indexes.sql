-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_redemptions" table
CREATE TABLE `new_redemptions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `object` text NOT NULL, `result` text NOT NULL, `status` text NOT NULL, `failure_code` text NULL, `failure_message` text NULL, `parent_id` text NULL, `rolled_back_id` text NULL, `rollback_id` text NULL, `voucher_code` text NULL, `campaign_id` text NULL, `order_id` text NULL, `tracking_id` text NULL, `session_key` text NULL, `reason` text NULL, `related_object_type` text NOT NULL, `related_object_id` text NOT NULL, `amount` integer NULL, `applied_discount` integer NOT NULL DEFAULT (0), `metadata` json NOT NULL, `order` json NULL, `reward` json NULL, `channel` json NULL, `customer_id` text NULL, `voucher_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `redemptions_customers_redemptions` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`) ON DELETE SET NULL, CONSTRAINT `redemptions_vouchers_redemptions` FOREIGN KEY (`voucher_id`) REFERENCES `vouchers` (`id`) ON DELETE SET NULL);
-- Copy rows from old table "redemptions" to new temporary table "new_redemptions"
INSERT INTO `new_redemptions` (`id`, `project_id`, `created_at`, `updated_at`, `object`, `result`, `status`, `failure_code`, `failure_message`, `parent_id`, `rolled_back_id`, `rollback_id`, `voucher_code`, `campaign_id`, `order_id`, `tracking_id`, `session_key`, `reason`, `related_object_type`, `related_object_id`, `amount`, `applied_discount`, `metadata`, `order`, `reward`, `channel`, `customer_id`, `voucher_id`) SELECT `id`, `project_id`, `created_at`, `updated_at`, `object`, `result`, `status`, `failure_code`, `failure_message`, `parent_id`, `rolled_back_id`, `rollback_id`, `voucher_code`, `campaign_id`, `order_id`, `tracking_id`, `session_key`, `reason`, `related_object_type`, `related_object_id`, `amount`, `applied_discount`, `metadata`, `order`, `reward`, `channel`, `customer_id`, `voucher_id` FROM `redemptions`;
-- Drop "redemptions" table after copying rows
DROP TABLE `redemptions`;
-- Rename temporary table "new_redemptions" to "redemptions"
ALTER TABLE `new_redemptions` RENAME TO `redemptions`;
-- Create index "redemption_project_id_created_at_id" to table: "redemptions"
CREATE INDEX `redemption_project_id_created_at_id` ON `redemptions` (`project_id`, `created_at`, `id`);
-- Create index "redemption_voucher_id_created_at" to table: "redemptions"
CREATE INDEX `redemption_voucher_id_created_at` ON `redemptions` (`voucher_id`, `created_at`) WHERE voucher_id IS NOT NULL;
-- Create index "redemption_customer_id_voucher_id" to table: "redemptions"
CREATE INDEX `redemption_customer_id_voucher_id` ON `redemptions` (`customer_id`, `voucher_id`) WHERE customer_id IS NOT NULL;
-- Create index "redemption_parent_id" to table: "redemptions"
CREATE INDEX `redemption_parent_id` ON `redemptions` (`parent_id`) WHERE parent_id IS NOT NULL;
-- Create index "redemption_rolled_back_id_result" to table: "redemptions"
CREATE UNIQUE INDEX `redemption_rolled_back_id_result` ON `redemptions` (`rolled_back_id`, `result`) WHERE rolled_back_id IS NOT NULL;
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
