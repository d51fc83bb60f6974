-- Create "referral_holders" table
CREATE TABLE `referral_holders` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `voucher_id` text NOT NULL, `campaign_id` text NOT NULL, `customer_id` text NOT NULL, `metadata` json NULL, PRIMARY KEY (`id`));
-- Create index "referralholder_project_id_voucher_id_customer_id" to table: "referral_holders"
CREATE UNIQUE INDEX `referralholder_project_id_voucher_id_customer_id` ON `referral_holders` (`project_id`, `voucher_id`, `customer_id`);
-- Create index "referralholder_project_id_voucher_id_created_at_id" to table: "referral_holders"
CREATE INDEX `referralholder_project_id_voucher_id_created_at_id` ON `referral_holders` (`project_id`, `voucher_id`, `created_at`, `id`);
