-- Modify "bin_entries" table
ALTER TABLE "bin_entries" ADD COLUMN "parent_entry_id" character varying NULL;
-- Create "consents" table
CREATE TABLE "consents" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "description" character varying NOT NULL DEFAULT '', "category" character varying NOT NULL DEFAULT '', PRIMARY KEY ("id"));
-- Create index "consent_project_id" to table: "consents"
CREATE INDEX "consent_project_id" ON "consents" ("project_id");
-- Create "consent_changes" table
CREATE TABLE "consent_changes" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "customer_id" character varying NOT NULL, "consent_id" character varying NOT NULL, "consent_name" character varying NOT NULL, "granted" boolean NOT NULL, PRIMARY KEY ("id"));
-- Create index "consentchange_project_id_customer_id_created_at_id" to table: "consent_changes"
CREATE INDEX "consentchange_project_id_customer_id_created_at_id" ON "consent_changes" ("project_id", "customer_id", "created_at", "id");
-- Create "consent_groups" table
CREATE TABLE "consent_groups" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "description" character varying NOT NULL DEFAULT '', "consents" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "consentgroup_project_id" to table: "consent_groups"
CREATE INDEX "consentgroup_project_id" ON "consent_groups" ("project_id");
-- Create "customer_consents" table
CREATE TABLE "customer_consents" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "customer_id" character varying NOT NULL, "consent_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "customerconsent_project_id_consent_id" to table: "customer_consents"
CREATE INDEX "customerconsent_project_id_consent_id" ON "customer_consents" ("project_id", "consent_id");
-- Create index "customerconsent_project_id_customer_id_consent_id" to table: "customer_consents"
CREATE UNIQUE INDEX "customerconsent_project_id_customer_id_consent_id" ON "customer_consents" ("project_id", "customer_id", "consent_id");
