-- Create "upload_chunks" table
CREATE TABLE `upload_chunks` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `project_id` text NOT NULL, `job_id` text NOT NULL, `seq` integer NOT NULL, `data` text NOT NULL);
-- Create index "uploadchunk_project_id" to table: "upload_chunks"
CREATE INDEX `uploadchunk_project_id` ON `upload_chunks` (`project_id`);
-- Create index "uploadchunk_job_id_seq" to table: "upload_chunks"
CREATE UNIQUE INDEX `uploadchunk_job_id_seq` ON `upload_chunks` (`job_id`, `seq`);
