-- Modify "bin_entries" table
ALTER TABLE "bin_entries" ADD COLUMN "snapshot" jsonb NULL;
