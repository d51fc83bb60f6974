-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_customers" table
CREATE TABLE `new_customers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `source_id` text NULL, `name` text NULL, `description` text NULL, `email` text NULL, `phone` text NULL, `birthday` text NULL, `address` json NULL, `metadata` json NOT NULL, `system_metadata` json NOT NULL, `orders_total_amount` integer NOT NULL DEFAULT (0), `orders_total_count` integer NOT NULL DEFAULT (0), `orders_last_amount` integer NULL, `orders_last_date` datetime NULL, PRIMARY KEY (`id`));
-- Copy rows from old table "customers" to new temporary table "new_customers"
INSERT INTO `new_customers` (`id`, `project_id`, `created_at`, `updated_at`, `source_id`, `name`, `description`, `email`, `phone`, `birthday`, `address`, `metadata`, `system_metadata`) SELECT `id`, `project_id`, `created_at`, `updated_at`, `source_id`, `name`, `description`, `email`, `phone`, `birthday`, `address`, `metadata`, `system_metadata` FROM `customers`;
-- Drop "customers" table after copying rows
DROP TABLE `customers`;
-- Rename temporary table "new_customers" to "customers"
ALTER TABLE `new_customers` RENAME TO `customers`;
-- Create index "customer_project_id_source_id" to table: "customers"
CREATE UNIQUE INDEX `customer_project_id_source_id` ON `customers` (`project_id`, `source_id`);
-- Create index "customer_project_id_created_at_id" to table: "customers"
CREATE INDEX `customer_project_id_created_at_id` ON `customers` (`project_id`, `created_at`, `id`);
-- Create index "customer_project_id_email" to table: "customers"
CREATE INDEX `customer_project_id_email` ON `customers` (`project_id`, `email`) WHERE email IS NOT NULL;
-- Create "new_orders" table
CREATE TABLE `new_orders` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `source_id` text NULL, `status` text NOT NULL DEFAULT ('CREATED'), `customer_id` text NULL, `calculated` json NOT NULL, `redemptions` json NOT NULL, `metadata` json NOT NULL, `amount` integer NOT NULL DEFAULT (0), `discount_amount` integer NOT NULL DEFAULT (0), `items_discount_amount` integer NOT NULL DEFAULT (0), `total_discount_amount` integer NOT NULL DEFAULT (0), `total_amount` integer NOT NULL DEFAULT (0), `applied_discount_amount` integer NOT NULL DEFAULT (0), `items_applied_discount_amount` integer NOT NULL DEFAULT (0), `total_applied_discount_amount` integer NOT NULL DEFAULT (0), `items` json NULL, `referrer_id` text NULL, `paid_earned_at` datetime NULL, `counted_amount` integer NULL, PRIMARY KEY (`id`));
-- Copy rows from old table "orders" to new temporary table "new_orders"
INSERT INTO `new_orders` (`id`, `project_id`, `created_at`, `updated_at`, `source_id`, `status`, `customer_id`, `calculated`, `redemptions`, `metadata`) SELECT `id`, `project_id`, `created_at`, `updated_at`, `source_id`, `status`, `customer_id`, `calculated`, `redemptions`, `metadata` FROM `orders`;
-- Drop "orders" table after copying rows
DROP TABLE `orders`;
-- Rename temporary table "new_orders" to "orders"
ALTER TABLE `new_orders` RENAME TO `orders`;
-- Create index "order_project_id_source_id" to table: "orders"
CREATE UNIQUE INDEX `order_project_id_source_id` ON `orders` (`project_id`, `source_id`);
-- Create index "order_project_id_created_at_id" to table: "orders"
CREATE INDEX `order_project_id_created_at_id` ON `orders` (`project_id`, `created_at`, `id`);
-- Create "order_events" table
CREATE TABLE `order_events` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `order_id` text NOT NULL, `customer_id` text NOT NULL, `type` text NOT NULL, `order` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "orderevent_project_id_customer_id_created_at_id" to table: "order_events"
CREATE INDEX `orderevent_project_id_customer_id_created_at_id` ON `order_events` (`project_id`, `customer_id`, `created_at`, `id`);
-- Create "product_collections" table
CREATE TABLE `product_collections` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL, `filter` json NULL, `products` json NULL, PRIMARY KEY (`id`));
-- Create index "productcollection_project_id_created_at_id" to table: "product_collections"
CREATE INDEX `productcollection_project_id_created_at_id` ON `product_collections` (`project_id`, `created_at`, `id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
