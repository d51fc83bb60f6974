-- Create "points_buckets" table
CREATE TABLE `points_buckets` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `voucher_id` text NULL, `card_id` text NULL, `campaign_id` text NULL, `customer_id` text NULL, `order_id` text NULL, `points` integer NOT NULL, `status` text NOT NULL, `expires_at` datetime NULL, `activates_at` datetime NULL, `source` text NOT NULL DEFAULT ('POINTS_ADDITION'), `details` json NOT NULL, `expiration_rules` json NULL, PRIMARY KEY (`id`));
-- Create index "pointsbucket_project_id" to table: "points_buckets"
CREATE INDEX `pointsbucket_project_id` ON `points_buckets` (`project_id`);
-- Create index "pointsbucket_voucher_id_status_expires_at" to table: "points_buckets"
CREATE INDEX `pointsbucket_voucher_id_status_expires_at` ON `points_buckets` (`voucher_id`, `status`, `expires_at`) WHERE voucher_id IS NOT NULL;
-- Create index "pointsbucket_card_id_status_expires_at" to table: "points_buckets"
CREATE INDEX `pointsbucket_card_id_status_expires_at` ON `points_buckets` (`card_id`, `status`, `expires_at`) WHERE card_id IS NOT NULL;
-- Create index "pointsbucket_status_expires_at" to table: "points_buckets"
CREATE INDEX `pointsbucket_status_expires_at` ON `points_buckets` (`status`, `expires_at`);
-- Create index "pointsbucket_status_activates_at" to table: "points_buckets"
CREATE INDEX `pointsbucket_status_activates_at` ON `points_buckets` (`status`, `activates_at`);
-- Create index "pointsbucket_campaign_id_status_id" to table: "points_buckets"
CREATE INDEX `pointsbucket_campaign_id_status_id` ON `points_buckets` (`campaign_id`, `status`, `id`) WHERE campaign_id IS NOT NULL;
