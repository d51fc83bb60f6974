-- Modify "projects" table
ALTER TABLE "projects" ADD COLUMN "stacking_rules" jsonb NULL;
-- Create "categories" table
CREATE TABLE "categories" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "hierarchy" bigint NOT NULL, PRIMARY KEY ("id"));
-- Create index "category_project_id_name" to table: "categories"
CREATE UNIQUE INDEX "category_project_id_name" ON "categories" ("project_id", "name");
-- Data: before categories existed, category_id held whatever the client sent and names
-- no category; clear it so the foreign key holds (the name stays in "category").
UPDATE "campaigns" SET "category_id" = NULL WHERE "category_id" IS NOT NULL;
-- Modify "campaigns" table
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_categories_campaigns" FOREIGN KEY ("category_id") REFERENCES "categories" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
