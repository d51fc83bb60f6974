package graph

import (
	"encoding/json"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent/entdb"
)

// checkTableReads EXPLAINs every statement of stmts that reads table
// (on PostgreSQL), counts aside, and fails when its plan fetches more
// than maxRows of the table's rows: rows read by any scan but an
// index-only one, and an index-only scan's heap fetches (a page not yet
// marked all-visible is read from the table).
func checkTableReads(t *testing.T, db *entdb.DB, name, table string, stmts []recordedStatement, maxRows float64) {
	t.Helper()
	if db.Dialect != dialect.Postgres {
		return
	}
	var fetched func(plan map[string]any) float64
	fetched = func(plan map[string]any) float64 {
		num := func(key string) float64 { v, _ := plan[key].(float64); return v }
		n := 0.0
		if rel, _ := plan["Relation Name"].(string); rel == table {
			if plan["Node Type"] == "Index Only Scan" {
				n = num("Heap Fetches")
			} else {
				n = num("Actual Rows")*max(num("Actual Loops"), 1) + num("Rows Removed by Filter")
			}
		}
		kids, _ := plan["Plans"].([]any)
		for _, k := range kids {
			if m, ok := k.(map[string]any); ok {
				n += fetched(m)
			}
		}
		return n
	}
	for _, st := range stmts {
		if !readsTable(st.query, table) || strings.Contains(st.query, "COUNT(") {
			continue // a capped count reads up to its cap (checkPlans)
		}
		plan := explain(t, db.SQL, st)
		if n := fetched(plan); n > maxRows {
			pretty, _ := json.MarshalIndent(plan, "", "  ")
			t.Errorf("%s: the plan fetches %v rows of %s (at most %v):\n%s\nargs %v\n%s", name, n, table, maxRows, st.query, st.args, pretty)
		}
	}
}
