-- Add column "parent_entry_id" to table: "bin_entries"
ALTER TABLE `bin_entries` ADD COLUMN `parent_entry_id` text NULL;
-- Create "consents" table
CREATE TABLE `consents` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `description` text NOT NULL DEFAULT (''), `category` text NOT NULL DEFAULT (''), PRIMARY KEY (`id`));
-- Create index "consent_project_id" to table: "consents"
CREATE INDEX `consent_project_id` ON `consents` (`project_id`);
-- Create "consent_changes" table
CREATE TABLE `consent_changes` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `customer_id` text NOT NULL, `consent_id` text NOT NULL, `consent_name` text NOT NULL, `granted` bool NOT NULL, PRIMARY KEY (`id`));
-- Create index "consentchange_project_id_customer_id_created_at_id" to table: "consent_changes"
CREATE INDEX `consentchange_project_id_customer_id_created_at_id` ON `consent_changes` (`project_id`, `customer_id`, `created_at`, `id`);
-- Create "consent_groups" table
CREATE TABLE `consent_groups` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `description` text NOT NULL DEFAULT (''), `consents` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "consentgroup_project_id" to table: "consent_groups"
CREATE INDEX `consentgroup_project_id` ON `consent_groups` (`project_id`);
-- Create "customer_consents" table
CREATE TABLE `customer_consents` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `customer_id` text NOT NULL, `consent_id` text NOT NULL, PRIMARY KEY (`id`));
-- Create index "customerconsent_project_id_customer_id_consent_id" to table: "customer_consents"
CREATE UNIQUE INDEX `customerconsent_project_id_customer_id_consent_id` ON `customer_consents` (`project_id`, `customer_id`, `consent_id`);
-- Create index "customerconsent_project_id_consent_id" to table: "customer_consents"
CREATE INDEX `customerconsent_project_id_consent_id` ON `customer_consents` (`project_id`, `consent_id`);
