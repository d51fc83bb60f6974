-- Compress the outbox's event snapshots (~2.6 KB each, over TOAST's 2 KB
-- threshold) with lz4 instead of PostgreSQL's default pglz: writing an
-- event is a part of every request that causes one, and pglz was a visible
-- share of it (docs/benchmarks.md, webhooks). Only new values are
-- compressed this way; old ones stay readable. A server built without lz4
-- (or older than PostgreSQL 14) keeps pglz: the change is a speed hint,
-- never a reason for the migration to fail.
DO $$
BEGIN
  ALTER TABLE "webhook_events" ALTER COLUMN "data" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
  RAISE NOTICE 'webhook_events.data keeps the default compression: %', SQLERRM;
END
$$;
