-- Create "campaign_templates" table
CREATE TABLE "campaign_templates" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "description" character varying NULL, "campaign_type" character varying NOT NULL, "setup" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "campaigntemplate_project_id_name" to table: "campaign_templates"
CREATE UNIQUE INDEX "campaigntemplate_project_id_name" ON "campaign_templates" ("project_id", "name");
-- Create "locations" table
CREATE TABLE "locations" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "shape" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "location_project_id" to table: "locations"
CREATE INDEX "location_project_id" ON "locations" ("project_id");
-- Create "user_invitations" table
CREATE TABLE "user_invitations" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "email" character varying NOT NULL, "first_name" character varying NOT NULL, "last_name" character varying NOT NULL, "projects" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "user_invitations_email_key" to table: "user_invitations"
CREATE UNIQUE INDEX "user_invitations_email_key" ON "user_invitations" ("email");
