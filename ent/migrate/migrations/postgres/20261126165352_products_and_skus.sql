-- Create "products" table
CREATE TABLE "products" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "source_id" character varying NULL, "name" character varying NULL, "price" bigint NULL, "attributes" jsonb NOT NULL, "image_url" character varying NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "product_project_id_created_at" to table: "products"
CREATE INDEX "product_project_id_created_at" ON "products" ("project_id", "created_at");
-- Create index "product_project_id_source_id" to table: "products"
CREATE UNIQUE INDEX "product_project_id_source_id" ON "products" ("project_id", "source_id");
-- Create "skus" table
CREATE TABLE "skus" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "source_id" character varying NULL, "sku" character varying NULL, "price" bigint NULL, "currency" character varying NULL, "attributes" jsonb NOT NULL, "image_url" character varying NULL, "metadata" jsonb NOT NULL, "product_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "skus_products_skus" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "sku_product_id_created_at" to table: "skus"
CREATE INDEX "sku_product_id_created_at" ON "skus" ("product_id", "created_at");
-- Create index "sku_project_id_source_id" to table: "skus"
CREATE UNIQUE INDEX "sku_project_id_source_id" ON "skus" ("project_id", "source_id");
