-- Create index "customer_project_id_id" to table: "customers"
CREATE INDEX "customer_project_id_id" ON "customers" ("project_id", "id");
-- Create index "publication_project_id_id" to table: "publications"
CREATE INDEX "publication_project_id_id" ON "publications" ("project_id", "id");
-- Create index "redemption_project_id_id" to table: "redemptions"
CREATE INDEX "redemption_project_id_id" ON "redemptions" ("project_id", "id");
