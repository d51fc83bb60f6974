-- Create "campaign_templates" table
CREATE TABLE `campaign_templates` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `campaign_type` text NOT NULL, `setup` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "campaigntemplate_project_id_name" to table: "campaign_templates"
CREATE UNIQUE INDEX `campaigntemplate_project_id_name` ON `campaign_templates` (`project_id`, `name`);
-- Create "locations" table
CREATE TABLE `locations` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `shape` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "location_project_id" to table: "locations"
CREATE INDEX `location_project_id` ON `locations` (`project_id`);
-- Create "user_invitations" table
CREATE TABLE `user_invitations` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `email` text NOT NULL, `first_name` text NOT NULL, `last_name` text NOT NULL, `projects` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "user_invitations_email_key" to table: "user_invitations"
CREATE UNIQUE INDEX `user_invitations_email_key` ON `user_invitations` (`email`);
