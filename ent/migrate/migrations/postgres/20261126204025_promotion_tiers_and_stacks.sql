-- Create "promotion_stacks" table
CREATE TABLE "promotion_stacks" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "tier_ids" jsonb NOT NULL, "hierarchy_mode" character varying NOT NULL DEFAULT 'MANUAL', "category_id" character varying NULL, "campaign_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "promotion_stacks_campaigns_promotion_stacks" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "promotionstack_campaign_id_created_at" to table: "promotion_stacks"
CREATE INDEX "promotionstack_campaign_id_created_at" ON "promotion_stacks" ("campaign_id", "created_at");
-- Create index "promotionstack_project_id_created_at_id" to table: "promotion_stacks"
CREATE INDEX "promotionstack_project_id_created_at_id" ON "promotion_stacks" ("project_id", "created_at", "id");
-- Create "promotion_tiers" table
CREATE TABLE "promotion_tiers" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "banner" character varying NULL, "discount" jsonb NULL, "hierarchy" bigint NOT NULL DEFAULT 1, "active" boolean NOT NULL DEFAULT true, "start_date" timestamptz NULL, "expiration_date" timestamptz NULL, "validity_timeframe" jsonb NULL, "validity_day_of_week" jsonb NULL, "validity_hours" jsonb NULL, "metadata" jsonb NOT NULL, "category_id" character varying NULL, "redeemed_count" bigint NOT NULL DEFAULT 0, "orders_amount" bigint NOT NULL DEFAULT 0, "orders_discount_amount" bigint NOT NULL DEFAULT 0, "campaign_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "promotion_tiers_campaigns_promotion_tiers" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "promotiontier_campaign_id_hierarchy" to table: "promotion_tiers"
CREATE INDEX "promotiontier_campaign_id_hierarchy" ON "promotion_tiers" ("campaign_id", "hierarchy");
-- Create index "promotiontier_project_id_created_at_id" to table: "promotion_tiers"
CREATE INDEX "promotiontier_project_id_created_at_id" ON "promotion_tiers" ("project_id", "created_at", "id");
