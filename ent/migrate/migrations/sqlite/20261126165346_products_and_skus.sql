-- Create "products" table
CREATE TABLE `products` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `source_id` text NULL, `name` text NULL, `price` integer NULL, `attributes` json NOT NULL, `image_url` text NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "product_project_id_source_id" to table: "products"
CREATE UNIQUE INDEX `product_project_id_source_id` ON `products` (`project_id`, `source_id`);
-- Create index "product_project_id_created_at" to table: "products"
CREATE INDEX `product_project_id_created_at` ON `products` (`project_id`, `created_at`);
-- Create "skus" table
CREATE TABLE `skus` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `source_id` text NULL, `sku` text NULL, `price` integer NULL, `currency` text NULL, `attributes` json NOT NULL, `image_url` text NULL, `metadata` json NOT NULL, `product_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `skus_products_skus` FOREIGN KEY (`product_id`) REFERENCES `products` (`id`) ON DELETE CASCADE);
-- Create index "sku_project_id_source_id" to table: "skus"
CREATE UNIQUE INDEX `sku_project_id_source_id` ON `skus` (`project_id`, `source_id`);
-- Create index "sku_product_id_created_at" to table: "skus"
CREATE INDEX `sku_product_id_created_at` ON `skus` (`product_id`, `created_at`);
