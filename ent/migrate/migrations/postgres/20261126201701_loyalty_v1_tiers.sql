-- Create "loyalty_tiers" table
CREATE TABLE "loyalty_tiers" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "campaign_id" character varying NOT NULL, "name" character varying NOT NULL, "points_from" bigint NULL, "points_to" bigint NULL, "earning_rules" jsonb NOT NULL, "rewards" jsonb NOT NULL, "metadata" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "loyaltytier_campaign_id_created_at" to table: "loyalty_tiers"
CREATE INDEX "loyaltytier_campaign_id_created_at" ON "loyalty_tiers" ("campaign_id", "created_at");
-- Create index "loyaltytier_project_id" to table: "loyalty_tiers"
CREATE INDEX "loyaltytier_project_id" ON "loyalty_tiers" ("project_id");
