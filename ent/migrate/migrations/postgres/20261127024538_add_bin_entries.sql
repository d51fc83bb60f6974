-- Create "bin_entries" table
CREATE TABLE "bin_entries" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "resource_type" character varying NOT NULL, "resource_id" character varying NOT NULL, "resource_name" character varying NOT NULL, "reserved_name" character varying NULL, "resource_parent_id" character varying NULL, "deleted_by_user_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "binentry_created_at" to table: "bin_entries"
CREATE INDEX "binentry_created_at" ON "bin_entries" ("created_at");
-- Create index "binentry_project_id_id" to table: "bin_entries"
CREATE INDEX "binentry_project_id_id" ON "bin_entries" ("project_id", "id");
-- Create index "binentry_project_id_resource_type_reserved_name" to table: "bin_entries"
CREATE INDEX "binentry_project_id_resource_type_reserved_name" ON "bin_entries" ("project_id", "resource_type", "reserved_name");
