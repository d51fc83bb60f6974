-- The rare kinds of entries of the redemption history: failures and rollbacks, newest first within the project.
CREATE INDEX `redemption_failures_project_id_created_at_id` ON `redemptions` (`project_id`, `created_at`, `id`) WHERE result = 'FAILURE';
CREATE INDEX `redemption_rollbacks_project_id_created_at_id` ON `redemptions` (`project_id`, `created_at`, `id`) WHERE object = 'redemption_rollback';
