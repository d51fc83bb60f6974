-- Create "campaign_earning_rules" table
CREATE TABLE "campaign_earning_rules" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "campaign_id" character varying NOT NULL, "event" character varying NOT NULL, "loyalty" jsonb NOT NULL, "custom_event" jsonb NULL, "segment" jsonb NULL, "loyalty_tier" jsonb NULL, "pending_points" jsonb NULL, "expiration_rules" jsonb NULL, "source" jsonb NULL, "validity_timeframe" jsonb NULL, "validity_day_of_week" jsonb NULL, "validity_hours" jsonb NULL, "active" boolean NOT NULL DEFAULT true, "validation_rule_id" character varying NULL, "start_date" timestamptz NULL, "expiration_date" timestamptz NULL, "automation_id" character varying NOT NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "campaignearningrule_campaign_id_created_at" to table: "campaign_earning_rules"
CREATE INDEX "campaignearningrule_campaign_id_created_at" ON "campaign_earning_rules" ("campaign_id", "created_at");
-- Create index "campaignearningrule_event_active" to table: "campaign_earning_rules"
CREATE INDEX "campaignearningrule_event_active" ON "campaign_earning_rules" ("event", "active");
-- Create index "campaignearningrule_project_id" to table: "campaign_earning_rules"
CREATE INDEX "campaignearningrule_project_id" ON "campaign_earning_rules" ("project_id");
-- Create "loyalty_tiers" table
CREATE TABLE "loyalty_tiers" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "campaign_id" character varying NOT NULL, "name" character varying NOT NULL, "points_from" bigint NULL, "points_to" bigint NULL, "earning_rules" jsonb NOT NULL, "rewards" jsonb NOT NULL, "metadata" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "loyaltytier_campaign_id_created_at" to table: "loyalty_tiers"
CREATE INDEX "loyaltytier_campaign_id_created_at" ON "loyalty_tiers" ("campaign_id", "created_at");
-- Create index "loyaltytier_project_id" to table: "loyalty_tiers"
CREATE INDEX "loyaltytier_project_id" ON "loyalty_tiers" ("project_id");
