package store

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent/entdb"
)

// LockKey serialises, until the transaction in ctx ends, every transaction
// that locks the same key — across server processes on PostgreSQL
// (transaction-scoped advisory lock on a hash of key). SQLite needs nothing:
// its write transactions already run one at a time (BEGIN IMMEDIATE). Use
// it for rules that must see each other's writes (one join_once code per
// customer, one publication per source_id).
func LockKey(ctx context.Context, key string) error {
	if entdb.DialectFromContext(ctx) != dialect.Postgres {
		return nil
	}
	c, err := Client(ctx)
	if err != nil {
		return err
	}
	if _, err := c.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key); err != nil {
		return fmt.Errorf("locking %q: %w", key, err)
	}
	return nil
}
