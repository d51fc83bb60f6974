-- Modify "projects" table
ALTER TABLE "projects" ADD COLUMN "qualification_version" bigint NOT NULL DEFAULT 0;
