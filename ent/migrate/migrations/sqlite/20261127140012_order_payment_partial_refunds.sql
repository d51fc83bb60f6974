-- Add column "order_amount" to table: "order_payments"
ALTER TABLE `order_payments` ADD COLUMN `order_amount` integer NULL;
-- Add column "order_items" to table: "order_payments"
ALTER TABLE `order_payments` ADD COLUMN `order_items` json NULL;
-- Add column "returned_points" to table: "order_payments"
ALTER TABLE `order_payments` ADD COLUMN `returned_points` integer NOT NULL DEFAULT 0;
