package entdb_test

import (
	"context"
	"testing"

	"entgo.io/ent/dialect"
)

// TestOutboxSnapshotsUseLZ4: on PostgreSQL the migrations leave the
// outbox's event snapshots (webhook_events.data) compressed with lz4 (the
// servers here are built with it), the cheaper method for the write every
// event-causing request makes. SQLite has no column compression.
func TestOutboxSnapshotsUseLZ4(t *testing.T) {
	db := openEmpty(t)
	if db.Dialect != dialect.Postgres {
		t.Skip("column compression is a PostgreSQL setting")
	}
	ctx := context.Background()
	if _, err := db.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var method string
	err := db.SQL.QueryRowContext(ctx, `SELECT attcompression::text FROM pg_attribute
		WHERE attrelid = 'webhook_events'::regclass AND attname = 'data'`).Scan(&method)
	if err != nil {
		t.Fatal(err)
	}
	if method != "l" {
		t.Errorf("webhook_events.data compression = %q, want l (lz4)", method)
	}
}
