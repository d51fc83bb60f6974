-- Add column "qualification_version" to table: "projects"
ALTER TABLE `projects` ADD COLUMN `qualification_version` integer NOT NULL DEFAULT (0);
