package graph

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/ent/webhookevent"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	listpage "github.com/promoengine/promoengine/graph/internal/page"
	orderpkg "github.com/promoengine/promoengine/graph/order"
	publicationpkg "github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The plans of the lists that can hold millions of rows, on PostgreSQL:
// the SQL each list really sends (captured through the ent driver, page 1
// and a deep page, with the counts a paginating client asks for) is
// EXPLAINed (and run: EXPLAIN ANALYZE) against tables of tens of
// thousands of rows after ANALYZE, where the planner would rather scan
// the table than use an index that does not fit. A plan fails when it
// reads the big table with a sequential scan that is not cut short by a
// LIMIT right above it, reads more of its rows than a capped count does
// (a count of the whole set, or an index walked past rows a filter
// rejects), or sorts more than a page's worth of rows (a sort of the
// whole set). On SQLite the lists
// run and their statements are captured, but the plans are not checked:
// SQLite's planner has no statistics of this kind here and would prove
// nothing about PostgreSQL.

// recordedStatement is one statement a list sent and its arguments.
type recordedStatement struct {
	query string
	args  []any
}

// argsRecorder is an ent driver that keeps every query it runs.
type argsRecorder struct {
	dialect.Driver
	mu    sync.Mutex
	stmts []recordedStatement
}

// Query implements dialect.Driver.
func (r *argsRecorder) Query(ctx context.Context, query string, args, v any) error {
	r.mu.Lock()
	a, _ := args.([]any)
	r.stmts = append(r.stmts, recordedStatement{query: query, args: append([]any(nil), a...)})
	r.mu.Unlock()
	return r.Driver.Query(ctx, query, args, v)
}

// QueryContext records and runs a hand-written statement (the kept texts
// of graph/redemption and graph/qualification run through it).
func (r *argsRecorder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	r.mu.Lock()
	r.stmts = append(r.stmts, recordedStatement{query: query, args: append([]any(nil), args...)})
	r.mu.Unlock()
	q, ok := r.Driver.(interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	})
	if !ok {
		return nil, fmt.Errorf("argsRecorder: %T runs no hand-written statement", r.Driver)
	}
	return q.QueryContext(ctx, query, args...)
}

// take returns the statements recorded since the last take.
func (r *argsRecorder) take() []recordedStatement {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.stmts
	r.stmts = nil
	return out
}

// recordArgs gives ctx an ent client whose reads are recorded.
func recordArgs(ctx context.Context, db *entdb.DB) (context.Context, *argsRecorder) {
	rec := &argsRecorder{Driver: entsql.OpenDB(db.Dialect, db.SQL)}
	return ent.NewContext(ctx, ent.NewClient(ent.Driver(rec))), rec
}

// planProblem walks an EXPLAIN (ANALYZE, FORMAT JSON) plan and describes
// the first node that reads table beyond a page: a sequential scan not
// directly under a Limit, a scan that read more than maxRead rows of the
// table (those it returned and those its filter removed: a count of the
// whole set, or an index walked past every row a filter rejects), or a
// Sort of more than maxSorted rows (a sort of the whole set).
func planProblem(plan map[string]any, parent string, table string, maxRead, maxSorted float64) string {
	num := func(m map[string]any, key string) float64 { v, _ := m[key].(float64); return v }
	node, _ := plan["Node Type"].(string)
	rel, _ := plan["Relation Name"].(string)
	if node == "Seq Scan" && rel == table && parent != "Limit" {
		return fmt.Sprintf("sequential scan of %s (%v rows)", table, num(plan, "Actual Rows"))
	}
	read := num(plan, "Actual Rows")*max(num(plan, "Actual Loops"), 1) + num(plan, "Rows Removed by Filter") +
		num(plan, "Rows Removed by Index Recheck")
	if rel == table && read > maxRead {
		return fmt.Sprintf("%s read %v rows of %s", node, read, table)
	}
	kids, _ := plan["Plans"].([]any)
	if node == "Sort" && len(kids) > 0 {
		if in := num(kids[0].(map[string]any), "Actual Rows"); in > maxSorted {
			return fmt.Sprintf("sort of %v rows", in)
		}
	}
	for _, k := range kids {
		if m, ok := k.(map[string]any); ok {
			if p := planProblem(m, node, table, maxRead, maxSorted); p != "" {
				return p
			}
		}
	}
	return ""
}

// explain returns the plan PostgreSQL chooses for a recorded statement.
func explain(t *testing.T, db *sql.DB, st recordedStatement) map[string]any {
	t.Helper()
	var out []byte
	if err := db.QueryRow("EXPLAIN (ANALYZE, FORMAT JSON) "+st.query, st.args...).Scan(&out); err != nil {
		t.Fatalf("explaining %s: %v", st.query, err)
	}
	var plans []map[string]any
	if err := json.Unmarshal(out, &plans); err != nil || len(plans) == 0 {
		t.Fatalf("reading the plan of %s: %v", st.query, err)
	}
	return plans[0]["Plan"].(map[string]any)
}

// readsTable reports whether a statement reads table.
func readsTable(query, table string) bool {
	return strings.Contains(query, `FROM "`+table+`"`) || strings.Contains(query, "FROM `"+table+"`") ||
		strings.Contains(query, `JOIN "`+table+`"`)
}

// checkPlans EXPLAINs every statement of stmts that reads table (on
// PostgreSQL) and fails on a plan that reads beyond the page; it fails
// too when no statement read the table.
func checkPlans(t *testing.T, db *entdb.DB, name, table string, stmts []recordedStatement) {
	t.Helper()
	read := false
	for _, st := range stmts {
		if !readsTable(st.query, table) {
			continue
		}
		read = true
		if db.Dialect != dialect.Postgres {
			continue
		}
		plan := explain(t, db.SQL, st)
		// A capped count reads up to TotalCountCap+1 rows; the deepest v1
		// page (99 of 100) skips 9,800.
		if p := planProblem(plan, "", table, ent.TotalCountCap+1, 1000); p != "" {
			pretty, _ := json.MarshalIndent(plan, "", "  ")
			t.Errorf("%s: %s in the plan of\n%s\nargs %v\n%s", name, p, st.query, st.args, pretty)
		}
	}
	if !read {
		t.Errorf("%s: no statement read %s; got %v", name, table, stmts)
	}
}

// columnsOf lists a table's columns.
func columnsOf(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	return cols
}

// cloneRows copies the row of table with the given id n times, with the
// columns in set replaced by SQL expressions of g (1…n), in one
// INSERT … SELECT over generate_series (PostgreSQL).
func cloneRows(t *testing.T, db *entdb.DB, table, id string, n int, set map[string]string) {
	t.Helper()
	cols := columnsOf(t, db.SQL, table)
	exprs := make([]string, len(cols))
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = `"` + c + `"`
		exprs[i] = `t."` + c + `"`
		if e, ok := set[c]; ok {
			exprs[i] = e
		}
	}
	q := fmt.Sprintf(`INSERT INTO "%s" (%s) SELECT %s FROM "%s" t, generate_series($2::int, $3::int) AS s(g) WHERE t.id = $1`,
		table, strings.Join(quoted, ", "), strings.Join(exprs, ", "), table)
	// The request pool's statement_timeout (5 s) is for requests; filling
	// a table is set-up, which a busy machine (CI runs packages in
	// parallel) may take longer over. Its connections also give up on a
	// read that waits longer than the timeout plus a grace (entdb's
	// frozen-server bound), which SET LOCAL does not lift: the rows go in
	// statements of cloneChunk rows.
	tx, err := db.SQL.Begin()
	if err != nil {
		t.Fatalf("cloning %s: %v", table, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if _, err := tx.Exec(`SET LOCAL statement_timeout = 0`); err != nil {
		t.Fatalf("cloning %s: %v", table, err)
	}
	for from := 1; from <= n; from += cloneChunk {
		if _, err := tx.Exec(q, id, from, min(from+cloneChunk-1, n)); err != nil {
			t.Fatalf("cloning %s: %v\n%s", table, err, q)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("cloning %s: %v", table, err)
	}
}

// cloneChunk is how many rows one statement of cloneRows inserts.
const cloneChunk = 5000

// bigRows is how many rows each big table gets on PostgreSQL: enough
// that the planner prefers a sequential scan or a sort of the whole set
// when no index fits, small enough to keep the test within seconds.
const bigRows = 30000

// listCase is one list request: what it reads and how to run it.
type listCase struct {
	name  string
	table string
	run   func(t *testing.T, ctx context.Context)
}

// fillBigTables gives the project a campaign "big" of bigRows+2 vouchers,
// a campaign "small" of 60 beside it, and bigRows more customers,
// publications and redemptions, all cloned from rows the use cases made
// (PostgreSQL only; on SQLite the lists run on the few real rows).
func fillBigTables(t *testing.T, db *entdb.DB, ctx context.Context) (webhookID string) {
	t.Helper()
	campaigntest.WithCodes(t, ctx, "big", campaigntest.Codes("B", 2)...)
	campaigntest.WithCodes(t, ctx, "small", campaigntest.Codes("S", 60)...)
	publishedCustomers(t, ctx, "small", "cust", 1)
	hook := otherRows(t, ctx)
	if db.Dialect != dialect.Postgres {
		return hook
	}
	one := func(q string) string {
		var id string
		if err := db.SQL.QueryRow(q).Scan(&id); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return id
	}
	back := func(col string) string { return `t."` + col + `" - g * interval '1 second'` }
	cloneRows(t, db, "vouchers", one(`SELECT id FROM vouchers WHERE code = 'B000'`), bigRows, map[string]string{
		"id": `'v_' || md5(g::text)`, "code": `'BULK' || g`, "created_at": back("created_at")})
	if _, err := db.SQL.Exec(`UPDATE campaigns SET vouchers_count = vouchers_count + $1 WHERE name = 'big'`, bigRows); err != nil {
		t.Fatal(err)
	}
	cloneRows(t, db, "customers", one(`SELECT id FROM customers LIMIT 1`), bigRows, map[string]string{
		"id": `'cust_' || substr(md5(g::text), 1, 24)`, "source_id": `'bulk-' || g`, "created_at": back("created_at")})
	cloneRows(t, db, "publications", one(`SELECT id FROM publications LIMIT 1`), bigRows, map[string]string{
		"id": `'pub_' || md5(g::text)`, "source_id": `NULL`, "created_at": back("created_at")})
	// Each cloned publication published the cloned voucher of its number
	// (GET /v1/publications?voucher= reads the links by voucher_id).
	if _, err := db.SQL.Exec(`INSERT INTO publication_vouchers (publication_id, voucher_id)
		SELECT 'pub_' || md5(g::text), 'v_' || md5(g::text) FROM generate_series(1, $1::int) AS s(g)`, bigRows); err != nil {
		t.Fatal(err)
	}
	cloneRows(t, db, "redemptions", one(`SELECT id FROM redemptions LIMIT 1`), bigRows, map[string]string{
		"id": `'r_' || substr(md5(g::text), 1, 18)`, "created_at": back("created_at")})
	rareRedemptions(t, db, one(`SELECT id FROM redemptions LIMIT 1`))
	cloneRows(t, db, "voucher_transactions", one(`SELECT id FROM voucher_transactions LIMIT 1`), bigRows, map[string]string{
		"id": `'vtx_' || substr(md5(g::text), 1, 18)`, "created_at": back("created_at")})
	cloneRows(t, db, "custom_events", one(`SELECT id FROM custom_events LIMIT 1`), bigRows, map[string]string{
		"id": `'cev_' || substr(md5(g::text), 1, 24)`, "created_at": back("created_at")})
	cloneRows(t, db, "webhook_events", one(`SELECT id FROM webhook_events LIMIT 1`), bigRows, map[string]string{
		"id": `'whe_' || substr(md5(g::text), 1, 18)`, "state": `'DELIVERED'`, "created_at": back("created_at")})
	cloneRows(t, db, "orders", one(`SELECT id FROM orders LIMIT 1`), bigRows, map[string]string{
		"id": `'ord_' || substr(md5(g::text), 1, 18)`, "source_id": `NULL`, "created_at": back("created_at")})
	analyze(t, db, ctx, "vouchers", "customers", "publications", "publication_vouchers", "redemptions", "campaigns",
		"voucher_transactions", "custom_events", "webhook_events", "orders")
	return hook
}

// otherRows writes one voucher transaction (of campaign "big"), one
// custom event (of the first customer) and one webhook event, for
// fillBigTables to clone, and returns the webhook's ID.
func otherRows(t *testing.T, ctx context.Context) (webhookID string) {
	t.Helper()
	c := ent.FromContext(ctx)
	v, err := c.Voucher.Query().Where(voucher.Code("B000")).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := campaignpkg.RecordTransaction(ctx, c, v, vouchertransaction.TypeCREDITS_ADDITION, 100, 100, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	cust, err := c.Customer.Query().First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CustomEvent.Create().SetType("visited").SetCustomerID(cust.ID).Save(ctx); err != nil {
		t.Fatal(err)
	}
	amount := int64(1000)
	if _, err := orderpkg.CreateOrder(ctx, orderpkg.OrderInput{Amount: &amount}); err != nil {
		t.Fatal(err)
	}
	hook, err := c.Webhook.Create().SetTargetURL("https://example.com/hook").SetEvents([]string{"voucher.published"}).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	_, err = c.WebhookEvent.Create().SetWebhookID(hook.ID).SetType("voucher.published").SetObjectType("voucher").
		SetObjectID(v.ID).SetData("{}").SetState(webhookevent.StateDELIVERED).SetNextAttemptAt(now).SetRetrySince(now).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return hook.ID
}

// idAt returns the id at position n (0-based) of a table in id order, for
// a deep cursor.
func idAt(t *testing.T, db *entdb.DB, table, where string, n int) string {
	t.Helper()
	var id string
	q := fmt.Sprintf(`SELECT id FROM "%s" WHERE %s ORDER BY id LIMIT 1 OFFSET %d`, table, where, n)
	if err := db.SQL.QueryRow(q).Scan(&id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

// cursorAt is the cursor of the node with the given id in a root
// connection's default order, as the GraphQL API hands it out.
func cursorAt(t *testing.T, ctx context.Context, field, id string) string {
	t.Helper()
	data := gqlQuery(t, ctx, fmt.Sprintf(`{ %s(first: 1, where: {idGTE: %q}) { pageInfo { endCursor } } }`, field, id))
	c, _ := data[field].(map[string]any)["pageInfo"].(map[string]any)["endCursor"].(string)
	if c == "" {
		t.Fatalf("no cursor at %s in %s: %v", id, field, data)
	}
	return c
}

// newestCursorAt is the cursor, in a root connection ordered by
// CREATED_AT DESC (a multi-field order: ent/keyset), of the row at
// position n (0-based) of the table in that order.
func newestCursorAt(t *testing.T, db *entdb.DB, ctx context.Context, field, table string, n int) string {
	t.Helper()
	var at time.Time
	q := fmt.Sprintf(`SELECT created_at FROM "%s" ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET %d`, table, n)
	if err := db.SQL.QueryRow(q).Scan(&at); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	data := gqlQuery(t, ctx, fmt.Sprintf(`{ %s(first: 1, orderBy: [{field: CREATED_AT, direction: DESC}], where: {createdAtLTE: %q}) { pageInfo { endCursor } } }`,
		field, at.UTC().Format(time.RFC3339Nano)))
	c, _ := data[field].(map[string]any)["pageInfo"].(map[string]any)["endCursor"].(string)
	if c == "" {
		t.Fatalf("no cursor at %s in %s: %v", at, field, data)
	}
	return c
}

// sourceCursorAt is the cursor of the customer at position n in the
// order SOURCE_ID ASC, CREATED_AT DESC (directions mixed: ent/keyset's
// OR with a leading bound).
func sourceCursorAt(t *testing.T, db *entdb.DB, ctx context.Context, n int) string {
	t.Helper()
	var source string
	q := fmt.Sprintf(`SELECT source_id FROM customers ORDER BY source_id, created_at DESC LIMIT 1 OFFSET %d`, n)
	if err := db.SQL.QueryRow(q).Scan(&source); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	data := gqlQuery(t, ctx, fmt.Sprintf(`{ customers(first: 1, orderBy: [{field: SOURCE_ID}, {field: CREATED_AT, direction: DESC}], where: {sourceID: %q}) { pageInfo { endCursor } } }`, source))
	c, _ := data["customers"].(map[string]any)["pageInfo"].(map[string]any)["endCursor"].(string)
	if c == "" {
		t.Fatalf("no cursor at %s in customers: %v", source, data)
	}
	return c
}

// TestListPlansStayWithinThePage: page 1 and a deep page of every list
// that can hold millions of rows — REST's v1 lists (with total) and the
// GraphQL connections (with totalCount and pageInfo) — read no more than
// the page (and a count capped at ent.TotalCountCap, or a counter) on
// PostgreSQL.
func TestListPlansStayWithinThePage(t *testing.T) {
	db, ctx := projectContext(t)
	hook := fillBigTables(t, db, ctx)
	deep := func(n int) int {
		if db.Dialect == dialect.Postgres {
			return n
		}
		return 0
	}
	limit, first, last := 50, 1, 99
	v1 := func(page *int) (*int, *int) { return &limit, page }
	gql := func(query string) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) { gqlQuery(t, ctx, query) }
	}
	page := func(field, args string) string {
		return fmt.Sprintf(`%s(first: 50%s) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } }`, field, args)
	}
	after := func(c string) string { return fmt.Sprintf(", after: %q", c) }
	big := `campaign_id = (SELECT id FROM campaigns WHERE name = 'big')`
	bigCursor := cursorAt(t, ctx, "vouchers", idAt(t, db, "vouchers", big, deep(20000)))
	voucherCursor := cursorAt(t, ctx, "vouchers", idAt(t, db, "vouchers", "true", deep(20000)))
	customerCursor := cursorAt(t, ctx, "customers", idAt(t, db, "customers", "true", deep(20000)))
	publicationCursor := cursorAt(t, ctx, "publications", idAt(t, db, "publications", "true", deep(20000)))
	redemptionCursor := cursorAt(t, ctx, "redemptions", idAt(t, db, "redemptions", "true", deep(20000)))
	bigName, smallName := "big", "small"
	cloned := 0 // cloned rows per big table
	if db.Dialect == dialect.Postgres {
		cloned = bigRows
	}
	// Multi-field orders (ent/keyset): the cursor must bound the index walk.
	newest := `, orderBy: [{field: CREATED_AT, direction: DESC}]`
	newestCustomer := newestCursorAt(t, db, ctx, "customers", "customers", deep(20000))
	newestVoucher := newestCursorAt(t, db, ctx, "vouchers", "vouchers", deep(20000))
	newestRedemption := newestCursorAt(t, db, ctx, "redemptions", "redemptions", deep(20000))
	bySourceCustomer := sourceCursorAt(t, db, ctx, deep(20000))
	eventCursor := cursorAt(t, ctx, "customEvents", idAt(t, db, "custom_events", "true", deep(20000)))

	// The customer cust-0 holds every cloned publication, redemption and
	// custom event: its activities merge the pages of each source.
	activities := func(t *testing.T, ctx context.Context) {
		if _, err := customerpkg.ListActivities(ctx, "cust-0", &customerpkg.CustomerActivityListInput{Limit: &limit}); err != nil {
			t.Fatal(err)
		}
	}
	// Documented filters of the v1 lists, page 1: each reads its page off
	// an index (cust-0 holds the cloned publications and redemptions).
	cust := "cust-0"
	filtered := []listCase{
		{"GET /v1/vouchers?customer=cust-0", "vouchers", func(t *testing.T, ctx context.Context) {
			if _, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: &limit, Customer: &cust}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/publications?campaign=small", "publications", func(t *testing.T, ctx context.Context) {
			if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: &limit, Campaign: &smallName}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/publications?customer=cust-0", "publications", func(t *testing.T, ctx context.Context) {
			if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: &limit, Customer: &cust}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/redemptions?campaign=small", "redemptions", func(t *testing.T, ctx context.Context) {
			if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: &limit, Campaign: &smallName}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/redemptions?customer=cust-0", "redemptions", func(t *testing.T, ctx context.Context) {
			if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: &limit, Customer: &cust}); err != nil {
				t.Fatal(err)
			}
		}},
		// A voucher's publications: the links by voucher_id
		// (publicationvoucher_voucher_id), not a scan of every link.
		{"GET /v1/publications?voucher=…", "publication_vouchers", func(t *testing.T, ctx context.Context) {
			var code string
			if err := db.SQL.QueryRow(`SELECT v.code FROM vouchers v JOIN publication_vouchers pv ON pv.voucher_id = v.id
				ORDER BY v.code DESC LIMIT 1`).Scan(&code); err != nil {
				t.Fatal(err)
			}
			if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: &limit, Voucher: &code}); err != nil {
				t.Fatal(err)
			}
		}},
		// What was published (every cloned publication is of a discount
		// code): the (project_id, created_at, id) walk with a correlated
		// EXISTS probe of each entry's links by their primary key, the
		// count capped. (A rare type walks further: docs/architecture.md,
		// "Indexes of the list filters".)
		{"GET /v1/publications?voucher_type=discount", "publications", func(t *testing.T, ctx context.Context) {
			discount := "discount"
			if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: &limit, VoucherType: &discount}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/publications?filters[campaign_name][conditions][$is]=small", "publications", func(t *testing.T, ctx context.Context) {
			in := &publicationpkg.PublicationListInput{Limit: &limit, Filters: map[string]any{
				"campaign_name": map[string]any{"conditions": map[string]any{"$is": "small"}}}}
			if _, err := publicationpkg.List(ctx, in); err != nil {
				t.Fatal(err)
			}
		}},
		// The redemption history's filters[…] on an indexed column: the
		// customer's (customer_id, created_at, id), the campaigns' looked
		// up by name, then (campaign_id, created_at, id).
		{"GET /v1/redemptions?filters[customer_id][conditions][$is]=cust-0", "redemptions", func(t *testing.T, ctx context.Context) {
			in := &redemption.RedemptionListInput{Limit: &limit, Filters: map[string]any{
				"customer_id": map[string]any{"conditions": map[string]any{"$is": cust}}}}
			if _, err := redemption.List(ctx, in); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/redemptions?filters[campaign_name][conditions][$is]=small", "redemptions", func(t *testing.T, ctx context.Context) {
			in := &redemption.RedemptionListInput{Limit: &limit, Filters: map[string]any{
				"campaign_name": map[string]any{"conditions": map[string]any{"$is": smallName}}}}
			if _, err := redemption.List(ctx, in); err != nil {
				t.Fatal(err)
			}
		}},
		// A voucher's redemptions (every cloned redemption is of one
		// voucher, as a generic code's are): newest first off
		// (voucher_id, created_at).
		{"GET /v1/redemptions?voucher=…", "redemptions", func(t *testing.T, ctx context.Context) {
			var id string
			if err := db.SQL.QueryRow(`SELECT voucher_id FROM redemptions WHERE voucher_id IS NOT NULL LIMIT 1`).Scan(&id); err != nil {
				t.Fatal(err)
			}
			if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: &limit, Voucher: &id}); err != nil {
				t.Fatal(err)
			}
		}},
		// Date filters: a range of (project_id, created_at, id).
		{"GET /v1/redemptions?created_before=…", "redemptions", func(t *testing.T, ctx context.Context) {
			before := time.Now().Add(-time.Hour)
			if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: &limit, CreatedBefore: &before}); err != nil {
				t.Fatal(err)
			}
		}},
		// The last hour (an eighth of the cloned rows): a range of the
		// index for the page and the count. (A range holding most rows is
		// counted by a sequential scan the cap stops: it reads
		// cap ÷ share rows, the planner's choice.)
		{"GET /v1/vouchers?created_after=…", "vouchers", func(t *testing.T, ctx context.Context) {
			after := time.Now().Add(-time.Hour)
			if _, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: &limit, CreatedAfter: &after}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/customers?created_after=…", "customers", func(t *testing.T, ctx context.Context) {
			after := time.Now().Add(-time.Hour)
			if _, err := customerpkg.List(ctx, &customerpkg.CustomerListInput{Limit: &limit, CreatedAfter: &after}); err != nil {
				t.Fatal(err)
			}
		}},
	}
	cases := append(append([]listCase{}, filtered...), rareRedemptionCases(db, limit)...)
	for _, p := range []*int{&first, &last} {
		cases = append(cases,
			listCase{fmt.Sprintf("GET /v1/vouchers?campaign=big&page=%d", *p), "vouchers", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				list, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: l, Page: pg, Campaign: &bigName})
				if err != nil {
					t.Fatal(err)
				}
				if want := cloned + 2; list.Total != want { // the campaign's counter: exact
					t.Errorf("total of campaign big: %d, want %d", list.Total, want)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/vouchers?campaign=small&page=%d", *p), "vouchers", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				if _, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: l, Page: pg, Campaign: &smallName}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/vouchers?page=%d", *p), "vouchers", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				list, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: l, Page: pg})
				if err != nil {
					t.Fatal(err)
				}
				if want := min(cloned+62, ent.TotalCountCap); list.Total != want { // a capped count
					t.Errorf("total of the project's vouchers: %d, want %d", list.Total, want)
				}
			}},
			listCase{fmt.Sprintf("voucherList(campaign: big, page: %d) with total", *p), "vouchers",
				gql(fmt.Sprintf(`{ voucherList(input: {campaign: "big", limit: 50, page: %d}) { total data { id code } } }`, *p))},
			listCase{fmt.Sprintf("GET /v1/orders?page=%d", *p), "orders", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				if _, err := orderpkg.ListOrders(ctx, &orderpkg.ListInput{Limit: l, Page: pg}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/customers?page=%d", *p), "customers", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				if _, err := customerpkg.List(ctx, &customerpkg.CustomerListInput{Limit: l, Page: pg}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/customers?email=…&page=%d", *p), "customers", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				email := "nobody@example.com"
				if _, err := customerpkg.List(ctx, &customerpkg.CustomerListInput{Limit: l, Page: pg, Email: &email}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/publications?page=%d", *p), "publications", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: l, Page: pg}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /management/v1/projects/{id}/webhooks/{id}/events?page=%d", *p), "webhook_events", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				if _, _, err := webhook.Events(ctx, hook, webhook.WebhookEventListInput{Limit: l, Page: pg}); err != nil {
					t.Fatal(err)
				}
			}},
			listCase{fmt.Sprintf("GET /v1/redemptions?page=%d", *p), "redemptions", func(t *testing.T, ctx context.Context) {
				l, pg := v1(p)
				if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: l, Page: pg}); err != nil {
					t.Fatal(err)
				}
			}},
		)
	}
	cases = append(cases,
		listCase{"campaign{vouchers} page 1", "vouchers", gql(`{ campaign(idOrName: "big") { ` + page("vouchers", "") + ` } }`)},
		listCase{"campaign{vouchers} deep page", "vouchers", gql(`{ campaign(idOrName: "big") { ` + page("vouchers", after(bigCursor)) + ` } }`)},
		listCase{"campaign(small){vouchers} page 1", "vouchers", gql(`{ campaign(idOrName: "small") { ` + page("vouchers", "") + ` } }`)},
		listCase{"vouchers page 1", "vouchers", gql(`{ ` + page("vouchers", "") + ` }`)},
		listCase{"vouchers deep page", "vouchers", gql(`{ ` + page("vouchers", after(voucherCursor)) + ` }`)},
		listCase{"customers page 1", "customers", func(t *testing.T, ctx context.Context) {
			conn := gqlQuery(t, ctx, `{ `+page("customers", "")+` }`)["customers"].(map[string]any)
			total, more := conn["totalCount"].(float64), conn["pageInfo"].(map[string]any)["hasNextPage"].(bool)
			if want := min(cloned+1, ent.TotalCountCap); int(total) != want || more != (want > 50) {
				t.Errorf("customers: totalCount %v, hasNextPage %v; want %d, %v", total, more, want, want > 50)
			}
		}},
		listCase{"customers deep page", "customers", gql(`{ ` + page("customers", after(customerCursor)) + ` }`)},
		listCase{"publications page 1", "publications", gql(`{ ` + page("publications", "") + ` }`)},
		listCase{"publications deep page", "publications", gql(`{ ` + page("publications", after(publicationCursor)) + ` }`)},
		listCase{"redemptions page 1", "redemptions", gql(`{ ` + page("redemptions", "") + ` }`)},
		listCase{"redemptions deep page", "redemptions", gql(`{ ` + page("redemptions", after(redemptionCursor)) + ` }`)},
		listCase{"customers newest first, deep page", "customers", gql(`{ ` + page("customers", newest+after(newestCustomer)) + ` }`)},
		listCase{"vouchers newest first, deep page", "vouchers", gql(`{ ` + page("vouchers", newest+after(newestVoucher)) + ` }`)},
		listCase{"redemptions newest first, deep page", "redemptions", gql(`{ ` + page("redemptions", newest+after(newestRedemption)) + ` }`)},
		listCase{"customers by source_id then newest, deep page", "customers",
			gql(`{ ` + page("customers", `, orderBy: [{field: SOURCE_ID}, {field: CREATED_AT, direction: DESC}]`+after(bySourceCustomer)) + ` }`)},
		listCase{"customEvents page 1", "custom_events", gql(`{ ` + page("customEvents", "") + ` }`)},
		listCase{"customEvents deep page", "custom_events", gql(`{ ` + page("customEvents", after(eventCursor)) + ` }`)},
		listCase{"GET /v1/customers/cust-0/activities (publications)", "publications", activities},
		listCase{"GET /v1/customers/cust-0/activities (redemptions)", "redemptions", activities},
		listCase{"GET /v1/customers/cust-0/activities (custom events)", "custom_events", activities},
		listCase{"GET /v1/vouchers/B000/transactions", "voucher_transactions", func(t *testing.T, ctx context.Context) {
			if _, err := campaignpkg.ListVoucherTransactions(ctx, "B000", &limit, nil, nil); err != nil {
				t.Fatal(err)
			}
		}},
		listCase{"voucher(B000){transactions} page 1", "voucher_transactions",
			gql(`{ voucher(codeOrID: "B000") { ` + page("transactions", "") + ` } }`)},
		listCase{"GET /v1/campaigns/big/transactions", "voucher_transactions", func(t *testing.T, ctx context.Context) {
			if _, err := campaignpkg.ListCampaignTransactions(ctx, "big", &limit, nil, nil); err != nil {
				t.Fatal(err)
			}
		}},
		listCase{"GET /v1/campaigns/big/transactions?starting_after_id=", "voucher_transactions", func(t *testing.T, ctx context.Context) {
			after := idAt(t, db, "voucher_transactions", "true", deep(20000))
			if _, err := campaignpkg.ListCampaignTransactions(ctx, "big", &limit, nil, &after); err != nil {
				t.Fatal(err)
			}
		}},
	)
	rctx, rec := recordArgs(ctx, db)
	for _, c := range cases {
		rec.take()
		c.run(t, rctx)
		checkPlans(t, db, c.name, c.table, rec.take())
	}
	// Page 99 of a v1 list skips 4,900 rows: it must skip them in an
	// index, reading from the table the page's own rows (its table vacuumed
	// until every page is all-visible first, as autovacuum keeps it).
	l, pg := v1(&last)
	deepPages := []listCase{
		{"GET /v1/vouchers?page=99", "vouchers", func(t *testing.T, ctx context.Context) {
			if _, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: l, Page: pg}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/vouchers?campaign=big&page=99", "vouchers", func(t *testing.T, ctx context.Context) {
			if _, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: l, Page: pg, Campaign: &bigName}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/customers?page=99", "customers", func(t *testing.T, ctx context.Context) {
			if _, err := customerpkg.List(ctx, &customerpkg.CustomerListInput{Limit: l, Page: pg}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/publications?page=99", "publications", func(t *testing.T, ctx context.Context) {
			if _, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: l, Page: pg}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/orders?page=99", "orders", func(t *testing.T, ctx context.Context) {
			if _, err := orderpkg.ListOrders(ctx, &orderpkg.ListInput{Limit: l, Page: pg}); err != nil {
				t.Fatal(err)
			}
		}},
		{"GET /v1/redemptions?page=99", "redemptions", func(t *testing.T, ctx context.Context) {
			if _, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: l, Page: pg}); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range deepPages {
		listpage.ForgetAllProjectTotals() // each page counts, to check the count's plan
		if db.Dialect == dialect.Postgres {
			settleVisibility(t, db, ctx, c.table)
		}
		rec.take()
		c.run(t, rctx)
		stmts := rec.take()
		checkTableReads(t, db, c.name, c.table, stmts, 1000)
		if !strings.Contains(c.name, "campaign=") { // a campaign's total is its counter
			checkCountsIndexOnly(t, db, c.name, c.table, strings.TrimSuffix(c.table, "s")+"_project_id_created_at_id", stmts)
		}
	}
	// Statements per page, at most: REST's redemptions page reads its
	// count and one statement of its rows with their customers, vouchers,
	// the vouchers' categories and their campaigns' names (restPage); so
	// does REST's publications page; redemptionList without edges its count and rows;
	// the orders page its count and rows; the customers' summaries one
	// grouped statement for the page. Every page counts here (nothing
	// remembered at the cap, see page.ProjectTotal).
	for _, c := range []struct {
		name string
		max  int
		run  func(ctx context.Context) error
	}{
		{"GET /v1/redemptions?page=2", 2, func(ctx context.Context) error {
			two := 2
			_, err := redemption.List(ctx, &redemption.RedemptionListInput{Limit: &limit, Page: &two})
			return err
		}},
		{"GET /v1/publications?page=2", 2, func(ctx context.Context) error {
			two := 2
			_, err := publicationpkg.List(ctx, &publicationpkg.PublicationListInput{Limit: &limit, Page: &two})
			return err
		}},
		{"redemptionList(page: 2){total data{id voucherCode}}", 2, func(ctx context.Context) error {
			gqlQuery(t, ctx, `{ redemptionList(input: {limit: 50, page: 2}) { total data { id voucherCode } } }`)
			return nil
		}},
		{"GET /v1/orders?page=2", 2, func(ctx context.Context) error {
			two := 2
			_, err := orderpkg.ListOrders(ctx, &orderpkg.ListInput{Limit: &limit, Page: &two})
			return err
		}},
		{"GET /v1/customers summaries", 1, func(ctx context.Context) error {
			list, err := customerpkg.List(ctx, &customerpkg.CustomerListInput{Limit: &limit})
			if err != nil {
				return err
			}
			rec.take()
			_, err = customerpkg.Summaries(ctx, list.Data)
			return err
		}},
	} {
		listpage.ForgetAllProjectTotals()
		rec.take()
		if err := c.run(rctx); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if stmts := rec.take(); len(stmts) > c.max {
			var texts []string
			for _, s := range stmts {
				texts = append(texts, s.query[:min(len(s.query), 120)])
			}
			t.Errorf("%s: %d statements, want at most %d:\n%s", c.name, len(stmts), c.max, strings.Join(texts, "\n"))
		}
	}
	// The project's redemptions connection counts off the index its v1
	// list pages read.
	listpage.ForgetAllProjectTotals()
	rec.take()
	gqlQuery(t, rctx, `{ `+page("redemptions", "")+` }`)
	checkCountsIndexOnly(t, db, "redemptions page 1", "redemptions", "redemption_project_id_created_at_id", rec.take())
	// So does the project's customers connection.
	listpage.ForgetAllProjectTotals()
	rec.take()
	gqlQuery(t, rctx, `{ `+page("customers", "")+` }`)
	checkCountsIndexOnly(t, db, "customers page 1", "customers", "customer_project_id_created_at_id", rec.take())
	// And the project's publications connection.
	listpage.ForgetAllProjectTotals()
	rec.take()
	gqlQuery(t, rctx, `{ `+page("publications", "")+` }`)
	checkCountsIndexOnly(t, db, "publications page 1", "publications", "publication_project_id_created_at_id", rec.take())
	// A small project beside the big one reads its own rows only.
	checkSmallProjectPages(t, db, ctx, rec, rctx)
}
