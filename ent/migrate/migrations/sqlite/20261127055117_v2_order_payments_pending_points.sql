-- Add column "pay_with_points" to table: "card_definitions"
ALTER TABLE `card_definitions` ADD COLUMN `pay_with_points` json NULL;
-- Add column "pending_points" to table: "card_definitions"
ALTER TABLE `card_definitions` ADD COLUMN `pending_points` json NULL;
-- Create "order_payments" table
CREATE TABLE `order_payments` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `program_id` text NOT NULL, `member_id` text NOT NULL, `card_id` text NOT NULL, `card_definition_id` text NOT NULL, `card_transaction_id` text NULL, `order_id` text NOT NULL, `status` text NOT NULL, `amount` integer NOT NULL, `points` integer NOT NULL, `exchange_ratio` real NOT NULL, `limits` json NULL, `rejection_reason` text NULL, PRIMARY KEY (`id`));
-- Create index "orderpayment_project_id" to table: "order_payments"
CREATE INDEX `orderpayment_project_id` ON `order_payments` (`project_id`);
-- Create index "orderpayment_member_id_created_at_id" to table: "order_payments"
CREATE INDEX `orderpayment_member_id_created_at_id` ON `order_payments` (`member_id`, `created_at`, `id`);
-- Create index "orderpayment_order_id_status" to table: "order_payments"
CREATE INDEX `orderpayment_order_id_status` ON `order_payments` (`order_id`, `status`);
