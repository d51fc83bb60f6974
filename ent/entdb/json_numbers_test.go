package entdb_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/migrate"
	"github.com/promoengine/promoengine/ent/migrate/migrations"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// TestRepairJSONNumbersMigration: rows written before the transports
// refused numbers beyond float64 (1e400 in metadata, issue 34) — seeded
// here with SQL at the migration before the repair — are readable after
// Up: through ent, and every JSON column of every table decodes. The
// out-of-range values become ±1.7976931348623157e308; everything else is
// kept.
func TestRepairJSONNumbersMigration(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	dir, _ := migrations.Dir(db.Dialect)
	files, _ := dir.Files()
	step := -1
	for i, f := range files {
		if strings.HasSuffix(f.Name(), "_repair_json_numbers.sql") {
			step = i
		}
	}
	if step < 1 {
		t.Fatalf("no repair_json_numbers migration among %d files", len(files))
	}
	if _, err := db.UpN(ctx, step); err != nil {
		t.Fatal(err)
	}
	// The values as a server before the fix stored them: SQLite keeps the
	// text as sent; PostgreSQL's jsonb keeps 1e400 as a numeric.
	customer := func(id, metadata string) string {
		return `INSERT INTO customers (id, project_id, created_at, source_id, metadata, system_metadata)
			VALUES ('` + id + `', 'proj_a', CURRENT_TIMESTAMP, '` + id + `', '` + metadata + `', '{}')`
	}
	for _, stmt := range []string{
		`INSERT INTO projects (id, created_at, name) VALUES ('proj_a', CURRENT_TIMESTAMP, 'A')`,
		customer("cust_big", `{"z":1,"k":1e400,"a":{"n":[-1e400,"1e400",2]},"i":9223372036854775808}`),
		customer("cust_ok", `{"k":1e300,"s":"1e400"}`),
		customer("cust_neg", `{"k":-1E+999}`),
		`INSERT INTO vouchers (id, project_id, created_at, code, type, metadata)
			VALUES ('v_big', 'proj_a', CURRENT_TIMESTAMP, 'V1', 'DISCOUNT_VOUCHER', '{"k":1e400}')`,
	} {
		if _, err := db.SQL.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	// The harm the repair undoes: ent cannot read these rows.
	sys := viewer.NewSystemContext(ctx)
	if _, err := db.Client.Customer.Query().All(sys); err == nil {
		t.Fatal("the seeded customers read back before the repair: the test seeds nothing harmful")
	}

	if _, err := db.Up(ctx); err != nil {
		t.Fatal(err)
	}
	custs, err := db.Client.Customer.Query().All(sys)
	if err != nil {
		t.Fatalf("customers after the repair: %v", err)
	}
	got := map[string]map[string]any{}
	for _, c := range custs {
		got[c.ID] = c.Metadata
	}
	const maxF = 1.7976931348623157e308
	big := got["cust_big"]
	if big["k"] != maxF || big["z"] != float64(1) || big["i"] != float64(9223372036854775808) {
		t.Errorf("cust_big metadata = %v", big)
	}
	if n, _ := big["a"].(map[string]any)["n"].([]any); len(n) != 3 || n[0] != -maxF || n[1] != "1e400" || n[2] != float64(2) {
		t.Errorf("cust_big metadata.a.n = %v", n)
	}
	if got["cust_ok"]["k"] != 1e300 || got["cust_ok"]["s"] != "1e400" || got["cust_neg"]["k"] != -maxF {
		t.Errorf("metadata = %v", got)
	}
	if db.Dialect == dialect.SQLite {
		// Every other byte is kept (PostgreSQL's jsonb normalises the text).
		var raw string
		if err := db.SQL.QueryRowContext(ctx, `SELECT metadata FROM customers WHERE id = 'cust_big'`).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if want := `{"z":1,"k":1.7976931348623157e308,"a":{"n":[-1.7976931348623157e308,"1e400",2]},"i":9223372036854775808}`; raw != want {
			t.Errorf("stored = %s, want %s", raw, want)
		}
	}
	if _, err := db.Client.Voucher.Query().All(sys); err != nil {
		t.Errorf("vouchers after the repair: %v", err)
	}
	// A row written later by a replica older than the rule (a rolling
	// upgrade) is repaired on demand.
	if _, err := db.SQL.ExecContext(ctx, customer("cust_late", `{"k":[1e400]}`)); err != nil {
		t.Fatal(err)
	}
	if n, err := db.RepairJSONNumbers(ctx); err != nil || n != 1 {
		t.Errorf("RepairJSONNumbers = %d, %v; want 1 value", n, err)
	}
	if _, err := db.Client.Customer.Query().All(sys); err != nil {
		t.Errorf("customers after the on-demand repair: %v", err)
	}
	// Every JSON column of every table decodes.
	for _, tbl := range migrate.Tables {
		for _, c := range tbl.Columns {
			if c.Type != field.TypeJSON {
				continue
			}
			rows, err := db.SQL.QueryContext(ctx, `SELECT CAST("`+c.Name+`" AS TEXT) FROM "`+tbl.Name+`" WHERE "`+c.Name+`" IS NOT NULL`)
			if err != nil {
				t.Fatalf("%s.%s: %v", tbl.Name, c.Name, err)
			}
			for rows.Next() {
				var doc string
				var v any
				if err := rows.Scan(&doc); err != nil || json.Unmarshal([]byte(doc), &v) != nil {
					t.Errorf("%s.%s: %.80s does not decode (%v)", tbl.Name, c.Name, doc, err)
				}
			}
			rows.Close()
		}
	}
}
