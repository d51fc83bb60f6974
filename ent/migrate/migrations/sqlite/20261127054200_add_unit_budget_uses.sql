-- Create "unit_budget_uses" table
CREATE TABLE `unit_budget_uses` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `redemption_id` text NOT NULL, `budget_key` text NOT NULL, `units` integer NOT NULL, PRIMARY KEY (`id`));
-- Create index "unitbudgetuse_project_id_budget_key" to table: "unit_budget_uses"
CREATE INDEX `unitbudgetuse_project_id_budget_key` ON `unit_budget_uses` (`project_id`, `budget_key`);
-- Create index "unitbudgetuse_redemption_id" to table: "unit_budget_uses"
CREATE INDEX `unitbudgetuse_redemption_id` ON `unit_budget_uses` (`redemption_id`);
