package entdb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// TestStatementTimeoutSparesJobs: on PostgreSQL a request's statement
// ends at the statement timeout (SQLSTATE 57014), while background jobs and
// migrations, on their own pool, run as long as they need.
func TestStatementTimeoutSparesJobs(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("PostgreSQL only (set " + entdbtest.EnvURL + "): statement_timeout")
	}
	ctx := context.Background()
	db, err := entdb.OpenWith(ctx, entdbtest.URL(t), entdb.Options{StatementTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pqErr *pq.Error
	if _, err := db.SQL.ExecContext(ctx, "SELECT pg_sleep(0.5)"); !errors.As(err, &pqErr) || pqErr.Code != "57014" {
		t.Errorf("a long statement of a request: %v, want 57014 query_canceled", err)
	}
	if _, err := db.Jobs.ExecContext(ctx, "SELECT pg_sleep(0.5)"); err != nil {
		t.Errorf("a long statement of a job: %v", err)
	}
	var lockTimeout string
	if err := db.SQL.QueryRowContext(ctx, "SHOW lock_timeout").Scan(&lockTimeout); err != nil || lockTimeout != "2s" {
		t.Errorf("lock_timeout of the request pool = %q (%v), want the default 2s", lockTimeout, err)
	}
}
