package entdb_test

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// TestStatementsArePreparedOncePerConnection: on PostgreSQL a
// parameterised statement is prepared on first use and reused by the same
// connection, also inside transactions.
func TestStatementsArePreparedOncePerConnection(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("PostgreSQL only (set " + entdbtest.EnvURL + ")")
	}
	ctx := context.Background()
	db := entdbtest.Open(t)
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	prepared := func() int {
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_prepared_statements").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := prepared()
	for i := range 5 {
		var got int
		if err := conn.QueryRowContext(ctx, "SELECT $1::int + 1", i).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("query %d: %d %v", i, got, err)
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "SELECT $1::int + 1", 7); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := prepared() - before; n != 1 {
		t.Errorf("%d statements prepared for 6 executions of one query, want 1", n)
	}
	// A broken query still reports its own error.
	if _, err := conn.ExecContext(ctx, "SELECT $1::int FROM no_such_table", 1); err == nil {
		t.Error("query on a missing table succeeded")
	}
}
