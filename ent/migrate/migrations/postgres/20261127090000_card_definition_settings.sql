-- Modify "card_definitions" table
ALTER TABLE "card_definitions" ADD COLUMN "settings" jsonb NULL;
