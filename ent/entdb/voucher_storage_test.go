package entdb_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// TestVoucherStorageParameters: on PostgreSQL the migrations leave the
// vouchers table with its storage parameter (migration …140030; why, in
// docs/architecture.md, "The vouchers table under publication"): pages
// filled to 90%.
func TestVoucherStorageParameters(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("storage parameters are PostgreSQL's")
	}
	db := openEmpty(t)
	ctx := context.Background()
	if _, err := db.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var options pq.StringArray
	if err := db.SQL.QueryRowContext(ctx, `SELECT coalesce(reloptions, '{}') FROM pg_class WHERE oid = 'vouchers'::regclass`).Scan(&options); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fillfactor=90"} {
		if !slices.Contains(options, want) {
			t.Errorf("vouchers' storage parameters %v lack %s", options, want)
		}
	}
}
