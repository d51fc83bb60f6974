-- Add column "settings" to table: "card_definitions"
ALTER TABLE `card_definitions` ADD COLUMN `settings` json NULL;
