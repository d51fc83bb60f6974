-- Create index "publication_customer_id_created_at_id" to table: "publications"
CREATE INDEX "publication_customer_id_created_at_id" ON "publications" ("customer_id", "created_at", "id");
-- Create index "redemption_customer_id_created_at_id" to table: "redemptions"
CREATE INDEX "redemption_customer_id_created_at_id" ON "redemptions" ("customer_id", "created_at", "id") WHERE (customer_id IS NOT NULL);
