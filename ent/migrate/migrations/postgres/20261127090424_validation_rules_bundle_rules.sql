-- Modify "validation_rules" table
ALTER TABLE "validation_rules" ADD COLUMN "bundle_rules" jsonb NULL;
