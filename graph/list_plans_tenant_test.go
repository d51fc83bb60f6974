package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	orderpkg "github.com/promoengine/promoengine/graph/order"
	publicationpkg "github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/graph/redemption"
)

// besideRows is how many rows per list the small project of
// checkSmallProjectPages gets: 2% of the big project's bigRows.
const besideRows = 600

// besideBudget is how many table rows a page of 50 of the small project
// may read (the page's own, the one past it, and rows of pages VACUUM left
// not all-visible); a plan that reads the project's every row (600) or
// walks rows of the big project reads more.
const besideBudget = 300

// checkSmallProjectPages: a project holding 2% of each big table, beside
// the big one (fillBigTables), pages through its own rows only — the
// GraphQL connections (in id order, with totalCount and pageInfo; page 1
// and after a deep cursor) and the v1 lists (newest first, with total;
// pages 1 and 3). Without an index that starts with the project in the
// connection's order, PostgreSQL either walks the primary key past the
// big project's rows (a filter dropping 49 of every 50) or reads and sorts
// all of the project's rows: a page costs O(table ÷ project's share) or
// O(project), not O(page), in a database of many tenants
// (docs/benchmarks.md, "Customers, publications, redemptions and orders at
// a million rows").
func checkSmallProjectPages(t *testing.T, db *entdb.DB, ctx context.Context, rec *argsRecorder, rctx context.Context) {
	t.Helper()
	var creds access.ProjectCredentials
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		creds, err = access.CreateProject(ctx, "beside", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	project := creds.ProjectID
	bctx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: project})
	campaigntest.WithCodes(t, bctx, "beside", campaigntest.Codes("Z", 4)...)
	publishedCustomers(t, bctx, "beside", "beside", 1)
	amount := int64(1000)
	if _, err := orderpkg.CreateOrder(bctx, orderpkg.OrderInput{Amount: &amount}); err != nil {
		t.Fatal(err)
	}
	if db.Dialect == dialect.Postgres {
		one := func(table string) string {
			var id string
			if err := db.SQL.QueryRow(fmt.Sprintf(`SELECT id FROM "%s" WHERE project_id = $1 LIMIT 1`, table), project).Scan(&id); err != nil {
				t.Fatalf("a row of %s: %v", table, err)
			}
			return id
		}
		back := func(col string) string { return `t."` + col + `" - g * interval '1 second'` }
		cloneRows(t, db, "customers", one("customers"), besideRows, map[string]string{
			"id": `'cust_b' || substr(md5('b' || g), 1, 23)`, "source_id": `'beside-' || g`, "created_at": back("created_at")})
		cloneRows(t, db, "publications", one("publications"), besideRows, map[string]string{
			"id": `'pub_b' || md5('b' || g)`, "source_id": `NULL`, "created_at": back("created_at")})
		cloneRows(t, db, "redemptions", one("redemptions"), besideRows, map[string]string{
			"id": `'r_b' || substr(md5('b' || g), 1, 17)`, "created_at": back("created_at")})
		cloneRows(t, db, "orders", one("orders"), besideRows, map[string]string{
			"id": `'ord_b' || substr(md5('b' || g), 1, 17)`, "source_id": `NULL`, "created_at": back("created_at")})
		analyze(t, db, ctx, "customers", "publications", "redemptions", "orders")
	}
	deep := 0
	if db.Dialect == dialect.Postgres {
		deep = besideRows / 4
	}
	limit, third := 50, 3
	page := func(field, args string) string {
		return fmt.Sprintf(`{ %s(first: 50%s) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`, field, args)
	}
	var cases []listCase
	for _, l := range []struct{ field, table string }{{"customers", "customers"}, {"publications", "publications"}, {"redemptions", "redemptions"}} {
		cursor := cursorAt(t, bctx, l.field, idAt(t, db, l.table, fmt.Sprintf("project_id = '%s'", project), deep))
		cases = append(cases,
			listCase{l.field + " page 1", l.table, func(t *testing.T, ctx context.Context) {
				conn := gqlQuery(t, ctx, page(l.field, ""))[l.field].(map[string]any)
				if n := len(conn["edges"].([]any)); n != min(50, deep*4+1) {
					t.Errorf("%s of the small project: %d edges", l.field, n)
				}
			}},
			listCase{l.field + " deep page", l.table, func(t *testing.T, ctx context.Context) {
				gqlQuery(t, ctx, page(l.field, fmt.Sprintf(", after: %q", cursor)))
			}})
	}
	for _, p := range []*int{nil, &third} {
		n := 1
		if p != nil {
			n = *p
		}
		cases = append(cases,
			listCase{fmt.Sprintf("GET /v1/customers?page=%d", n), "customers", func(t *testing.T, ctx context.Context) {
				if _, err := customerpkg.List(ctx, &customerpkg.CustomerListInput{Limit: &limit, Page: p}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/publications?page=%d", n), "publications", func(t *testing.T, ctx context.Context) {
				if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: &limit, Page: p}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/redemptions?page=%d", n), "redemptions", func(t *testing.T, ctx context.Context) {
				if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: &limit, Page: p}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/orders?page=%d", n), "orders", func(t *testing.T, ctx context.Context) {
				if _, err := orderpkg.ListOrders(ctx, &orderpkg.ListInput{Limit: &limit, Page: p}); err != nil {
					t.Fatal(err)
				}
			}})
	}
	brctx := viewer.NewContext(rctx, viewer.Viewer{ProjectID: project})
	for _, c := range cases {
		rec.take()
		c.run(t, brctx)
		stmts := rec.take()
		checkPlans(t, db, "small project: "+c.name, c.table, stmts)
		checkTableReads(t, db, "small project: "+c.name, c.table, stmts, besideBudget)
	}
}

// checkCountsIndexOnly fails when a capped count of stmts (on PostgreSQL)
// reads table other than by an index-only scan of index: a sequential
// scan under the count's LIMIT reads cap ÷ share rows of the table when
// the project is most of it, and heap rows where the index alone would
// do; another index may be one whose random IDs (redemptions) leave it
// twice the pages (the v1 lists' project-wide totals,
// page.CountInIndexOrder).
func checkCountsIndexOnly(t *testing.T, db *entdb.DB, name, table, index string, stmts []recordedStatement) {
	t.Helper()
	if db.Dialect != dialect.Postgres {
		return
	}
	var scans func(plan map[string]any) []string
	scans = func(plan map[string]any) []string {
		var out []string
		if rel, _ := plan["Relation Name"].(string); rel == table && (plan["Node Type"] != "Index Only Scan" || plan["Index Name"] != index) {
			out = append(out, fmt.Sprint(plan["Node Type"], " ", plan["Index Name"]))
		}
		kids, _ := plan["Plans"].([]any)
		for _, k := range kids {
			if m, ok := k.(map[string]any); ok {
				out = append(out, scans(m)...)
			}
		}
		return out
	}
	counted := false
	for _, st := range stmts {
		if !readsTable(st.query, table) || !strings.Contains(st.query, "COUNT(") {
			continue
		}
		counted = true
		if s := scans(explain(t, db.SQL, st)); len(s) > 0 {
			t.Errorf("%s: the count reads %s by %v, not an index-only scan of %s:\n%s\nargs %v", name, table, s, index, st.query, st.args)
		}
	}
	if !counted {
		t.Errorf("%s: no count of %s", name, table)
	}
}
