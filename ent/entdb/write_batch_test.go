package entdb

import (
	"context"
	"errors"
	"reflect"
	"testing"

	entsql "entgo.io/ent/dialect/sql"
)

// TestWriteBatchIsOneStatement: the recorded writes become one CTE whose
// placeholders follow on from each other, and whose every UPDATE must find
// a row.
func TestWriteBatchIsOneStatement(t *testing.T) {
	ctx, b := WithWriteBatch(context.Background())
	d := batchDriver{}
	var res any
	if err := d.Exec(ctx, `INSERT INTO "orders" ("id", "amount") VALUES ($1, $2)`, []any{"o1", 10}, &res); err != nil {
		t.Fatal(err)
	}
	var rows entsql.Rows
	if err := d.Query(ctx, `INSERT INTO "redemptions" ("id", "order_id") VALUES ($1, $2), ($3, $4) RETURNING "id"`,
		[]any{"r1", "o1", "r2", "o1"}, &rows); err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Error("a recorded INSERT … RETURNING returned rows")
	}
	if err := d.Exec(ctx, `UPDATE "vouchers" SET "n" = "n" + $1 WHERE "id" = $2`, []any{1, "v1"}, &res); err != nil {
		t.Fatal(err)
	}
	query, args := b.Statement()
	want := `WITH w0 AS (INSERT INTO "orders" ("id", "amount") VALUES ($1, $2)), ` +
		`w1 AS (INSERT INTO "redemptions" ("id", "order_id") VALUES ($3, $4), ($5, $6) RETURNING "id"), ` +
		`w2 AS (UPDATE "vouchers" SET "n" = "n" + $7 WHERE "id" = $8 RETURNING 1) SELECT 1 / (SELECT count(*) FROM w2)`
	if query != want {
		t.Errorf("statement\n%s\nwant\n%s", query, want)
	}
	if wantArgs := []any{"o1", 10, "r1", "o1", "r2", "o1", 1, "v1"}; !reflect.DeepEqual(args, wantArgs) {
		t.Errorf("arguments %v, want %v", args, wantArgs)
	}
	if got := renumber("a = $9 AND b = $10 AND c = $", 3); got != "a = $12 AND b = $13 AND c = $" {
		t.Errorf("renumber: %s", got)
	}
}

// TestWriteBatchRefusesWhatItCannotAnswer: reads, deletes, transactions
// and statements with literals are refused, and a refused batch sends
// nothing.
func TestWriteBatchRefusesWhatItCannotAnswer(t *testing.T) {
	d := batchDriver{}
	for _, tc := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"read", func(ctx context.Context) error {
			var rows entsql.Rows
			return d.Query(ctx, `SELECT "id" FROM "webhooks" WHERE "active"`, []any{}, &rows)
		}},
		{"delete", func(ctx context.Context) error {
			var res any
			return d.Exec(ctx, `DELETE FROM "session_locks" WHERE "key" = $1`, []any{"k"}, &res)
		}},
		{"transaction", func(ctx context.Context) error { _, err := d.Tx(ctx); return err }},
		{"literal", func(ctx context.Context) error {
			var res any
			return d.Exec(ctx, `INSERT INTO "t" ("a", "b") VALUES ($1, '$2')`, []any{1}, &res)
		}},
	} {
		ctx, b := WithWriteBatch(context.Background())
		if err := tc.run(ctx); !errors.Is(err, ErrNotBatchable) {
			t.Errorf("%s: %v, want ErrNotBatchable", tc.name, err)
		}
		// Run must not reach the (nil) client.
		if err := b.Run(ctx, nil); !errors.Is(err, ErrNotBatchable) {
			t.Errorf("%s: Run gave %v, want ErrNotBatchable", tc.name, err)
		}
	}
}
