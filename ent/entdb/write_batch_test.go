package entdb

import (
	"context"
	"errors"
	"fmt"
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

// TestWriteBatchStatementTextPerShape: batches of the same writes share
// one statement text (built once, cached), and the cache tells apart
// batches whose statements take different numbers of arguments.
func TestWriteBatchStatementTextPerShape(t *testing.T) {
	build := func(n int) (string, []any) {
		b := &WriteBatch{}
		args := make([]any, n)
		for i := range args {
			args[i] = i
		}
		if err := b.Insert(`INSERT INTO "t" ("a") VALUES ($1)`, args...); err != nil {
			t.Fatal(err)
		}
		if err := b.Update(`UPDATE "u" SET "n" = "n" + 1 WHERE "id" = $1`, "u1"); err != nil {
			t.Fatal(err)
		}
		return b.Statement()
	}
	q1, _ := build(1)
	q2, args := build(1)
	if q1 != q2 {
		t.Errorf("the same writes made two texts:\n%s\n%s", q1, q2)
	}
	if want := []any{0, "u1"}; !reflect.DeepEqual(args, want) {
		t.Errorf("arguments %v, want %v", args, want)
	}
	q3, _ := build(2)
	if want := `WITH w0 AS (INSERT INTO "t" ("a") VALUES ($1)), w1 AS (UPDATE "u" SET "n" = "n" + 1 WHERE "id" = $3 RETURNING 1) SELECT 1 / (SELECT count(*) FROM w1)`; q3 != want {
		t.Errorf("statement\n%s\nwant\n%s", q3, want)
	}
}

// TestWriteBatchUpdatesRowsInOneStatement: rows recorded with one
// RowsUpdate go out as one UPDATE at the place of the first, with the
// common arguments once, and the batch holds only if it updates them all.
func TestWriteBatchUpdatesRowsInOneStatement(t *testing.T) {
	form := &RowsUpdate{Text: func(n int) string {
		return fmt.Sprintf(`UPDATE "u" SET "at" = $1 FROM (%d rows from $2) r WHERE "u"."id" = r."id"`, n)
	}}
	b := &WriteBatch{}
	for i, step := range []func() error{
		func() error { return b.Insert(`INSERT INTO "o" ("id") VALUES ($1)`, "o1") },
		func() error { return b.UpdateRows(form, []any{"now"}, "u1", "v1") },
		func() error { return b.Insert(`INSERT INTO "r" ("id") VALUES ($1)`, "r1") },
		func() error { return b.UpdateRows(form, []any{"later"}, "u2", "v2") },
	} {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	query, args := b.Statement()
	want := `WITH w0 AS (INSERT INTO "o" ("id") VALUES ($1)), ` +
		`w1 AS (UPDATE "u" SET "at" = $2 FROM (2 rows from $3) r WHERE "u"."id" = r."id" RETURNING 1), ` +
		`w2 AS (INSERT INTO "r" ("id") VALUES ($7)) SELECT 1 / (SELECT (count(*) = 2)::int FROM w1)`
	if query != want {
		t.Errorf("statement\n%s\nwant\n%s", query, want)
	}
	if wantArgs := []any{"o1", "now", "u1", "v1", "u2", "v2", "r1"}; !reflect.DeepEqual(args, wantArgs) {
		t.Errorf("arguments %v, want %v", args, wantArgs)
	}
	// Building the statement changes nothing recorded: twice, the same.
	if again, _ := b.Statement(); again != query {
		t.Errorf("second statement\n%s\nwant\n%s", again, query)
	}
	one := &WriteBatch{}
	if err := one.UpdateRows(form, []any{"now"}, "u1", "v1"); err != nil {
		t.Fatal(err)
	}
	if q, _ := one.Statement(); q != `WITH w0 AS (UPDATE "u" SET "at" = $1 FROM (1 rows from $2) r WHERE "u"."id" = r."id" RETURNING 1) SELECT 1 / (SELECT count(*) FROM w0)` {
		t.Errorf("one row: %s", q)
	}
}
