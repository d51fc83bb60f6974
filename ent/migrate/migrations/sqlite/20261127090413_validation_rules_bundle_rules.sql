-- Add column "bundle_rules" to table: "validation_rules"
ALTER TABLE `validation_rules` ADD COLUMN `bundle_rules` json NULL;
