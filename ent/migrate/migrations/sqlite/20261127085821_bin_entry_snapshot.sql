-- Add column "snapshot" to table: "bin_entries"
ALTER TABLE `bin_entries` ADD COLUMN `snapshot` json NULL;
