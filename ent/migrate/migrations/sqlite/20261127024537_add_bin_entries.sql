-- Create "bin_entries" table
CREATE TABLE `bin_entries` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `resource_type` text NOT NULL, `resource_id` text NOT NULL, `resource_name` text NOT NULL, `reserved_name` text NULL, `resource_parent_id` text NULL, `deleted_by_user_id` text NULL, PRIMARY KEY (`id`));
-- Create index "binentry_project_id_id" to table: "bin_entries"
CREATE INDEX `binentry_project_id_id` ON `bin_entries` (`project_id`, `id`);
-- Create index "binentry_project_id_resource_type_reserved_name" to table: "bin_entries"
CREATE INDEX `binentry_project_id_resource_type_reserved_name` ON `bin_entries` (`project_id`, `resource_type`, `reserved_name`);
-- Create index "binentry_created_at" to table: "bin_entries"
CREATE INDEX `binentry_created_at` ON `bin_entries` (`created_at`);
