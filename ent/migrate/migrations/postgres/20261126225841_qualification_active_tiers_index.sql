-- Create index "promotiontier_active_project_created" to table: "promotion_tiers"
CREATE INDEX "promotiontier_active_project_created" ON "promotion_tiers" ("project_id", "created_at", "id") WHERE active;
