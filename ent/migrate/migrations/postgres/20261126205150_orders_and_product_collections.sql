-- Modify "customers" table
ALTER TABLE "customers" ADD COLUMN "orders_total_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "orders_total_count" bigint NOT NULL DEFAULT 0, ADD COLUMN "orders_last_amount" bigint NULL, ADD COLUMN "orders_last_date" timestamptz NULL;
-- Modify "orders" table
ALTER TABLE "orders" ADD COLUMN "amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "discount_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "items_discount_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "total_discount_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "total_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "applied_discount_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "items_applied_discount_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "total_applied_discount_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "items" jsonb NULL, ADD COLUMN "referrer_id" character varying NULL, ADD COLUMN "paid_earned_at" timestamptz NULL, ADD COLUMN "counted_amount" bigint NULL;
-- Create index "order_project_id_created_at_id" to table: "orders"
CREATE INDEX "order_project_id_created_at_id" ON "orders" ("project_id", "created_at", "id");
-- Create "order_events" table
CREATE TABLE "order_events" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "order_id" character varying NOT NULL, "customer_id" character varying NOT NULL, "type" character varying NOT NULL, "order" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "orderevent_project_id_customer_id_created_at_id" to table: "order_events"
CREATE INDEX "orderevent_project_id_customer_id_created_at_id" ON "order_events" ("project_id", "customer_id", "created_at", "id");
-- Create "product_collections" table
CREATE TABLE "product_collections" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL, "filter" jsonb NULL, "products" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "productcollection_project_id_created_at_id" to table: "product_collections"
CREATE INDEX "productcollection_project_id_created_at_id" ON "product_collections" ("project_id", "created_at", "id");
