-- The rare kinds of entries of the redemption history, newest first within the project: failures (result=FAILURE,
-- filters[result], filters[failure_code]) and rollbacks (filters[object]) read their pages off these instead of
-- walking the project's entries; partial, so a successful redemption writes neither (docs/architecture.md,
-- "Indexes of the list filters").
CREATE INDEX "redemption_failures_project_id_created_at_id" ON "redemptions" ("project_id", "created_at", "id") WHERE ((result)::text = 'FAILURE'::text);
CREATE INDEX "redemption_rollbacks_project_id_created_at_id" ON "redemptions" ("project_id", "created_at", "id") WHERE ((object)::text = 'redemption_rollback'::text);
