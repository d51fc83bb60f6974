package entdb_test

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// TestMigrateDropsUndeclaredIndexes: a database made by an older schema
// loses the indexes the schema no longer declares (here the lone project_id
// index vouchers had before (project_id, code) was found to cover it).
func TestMigrateDropsUndeclaredIndexes(t *testing.T) {
	db := entdbtest.Open(t)
	ctx := context.Background()
	if _, err := db.SQL.ExecContext(ctx, "CREATE INDEX voucher_project_id ON vouchers (project_id)"); err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	query := "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'voucher_project_id'"
	if entdbtest.IsPostgres() {
		query = "SELECT count(*) FROM pg_indexes WHERE indexname = 'voucher_project_id'"
	}
	var n int
	if err := db.SQL.QueryRowContext(ctx, query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("the undeclared index survived the migration")
	}
}
