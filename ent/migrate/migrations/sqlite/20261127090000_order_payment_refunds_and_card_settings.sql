-- Add column "settings" to table: "card_definitions"
ALTER TABLE `card_definitions` ADD COLUMN `settings` json NULL;
-- Add column "rejection_details" to table: "order_payments"
ALTER TABLE `order_payments` ADD COLUMN `rejection_details` json NULL;
-- Add column "refund_transaction_id" to table: "order_payments"
ALTER TABLE `order_payments` ADD COLUMN `refund_transaction_id` text NULL;
