-- Create "promotion_stacks" table
CREATE TABLE `promotion_stacks` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `tier_ids` json NOT NULL, `hierarchy_mode` text NOT NULL DEFAULT ('MANUAL'), `category_id` text NULL, `campaign_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `promotion_stacks_campaigns_promotion_stacks` FOREIGN KEY (`campaign_id`) REFERENCES `campaigns` (`id`) ON DELETE CASCADE);
-- Create index "promotionstack_project_id_created_at_id" to table: "promotion_stacks"
CREATE INDEX `promotionstack_project_id_created_at_id` ON `promotion_stacks` (`project_id`, `created_at`, `id`);
-- Create index "promotionstack_campaign_id_created_at" to table: "promotion_stacks"
CREATE INDEX `promotionstack_campaign_id_created_at` ON `promotion_stacks` (`campaign_id`, `created_at`);
-- Create "promotion_tiers" table
CREATE TABLE `promotion_tiers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `banner` text NULL, `discount` json NULL, `hierarchy` integer NOT NULL DEFAULT (1), `active` bool NOT NULL DEFAULT (true), `start_date` datetime NULL, `expiration_date` datetime NULL, `validity_timeframe` json NULL, `validity_day_of_week` json NULL, `validity_hours` json NULL, `metadata` json NOT NULL, `category_id` text NULL, `redeemed_count` integer NOT NULL DEFAULT (0), `orders_amount` integer NOT NULL DEFAULT (0), `orders_discount_amount` integer NOT NULL DEFAULT (0), `campaign_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `promotion_tiers_campaigns_promotion_tiers` FOREIGN KEY (`campaign_id`) REFERENCES `campaigns` (`id`) ON DELETE CASCADE);
-- Create index "promotiontier_project_id_created_at_id" to table: "promotion_tiers"
CREATE INDEX `promotiontier_project_id_created_at_id` ON `promotion_tiers` (`project_id`, `created_at`, `id`);
-- Create index "promotiontier_campaign_id_hierarchy" to table: "promotion_tiers"
CREATE INDEX `promotiontier_campaign_id_hierarchy` ON `promotion_tiers` (`campaign_id`, `hierarchy`);
