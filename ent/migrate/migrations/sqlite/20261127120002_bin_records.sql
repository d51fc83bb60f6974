-- Add column "state" to table: "bin_entries"
ALTER TABLE `bin_entries` ADD COLUMN `state` text NOT NULL DEFAULT ('BINNED');
-- Create "bin_records" table
CREATE TABLE `bin_records` (`id` text NOT NULL, `project_id` text NOT NULL, `code` text NOT NULL, `snapshot` json NOT NULL, `entry_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `bin_records_bin_entries_records` FOREIGN KEY (`entry_id`) REFERENCES `bin_entries` (`id`) ON DELETE CASCADE);
-- Create index "binrecord_entry_id_id" to table: "bin_records"
CREATE INDEX `binrecord_entry_id_id` ON `bin_records` (`entry_id`, `id`);
-- Create index "binrecord_project_id_code" to table: "bin_records"
CREATE INDEX `binrecord_project_id_code` ON `bin_records` (`project_id`, `code`);
