package graph

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	publicationpkg "github.com/promoengine/promoengine/graph/publication"
)

// The activity lists' plans on PostgreSQL (list_plans_test.go has the
// machinery): a customer's activities (REST …/activities with its total,
// …/activity without), a v1 member's activity (the holder's activities of
// the program's campaign) and a v2 member's activities, each read on
// tables of bigRows rows where the customer under test holds half of them
// and other customers the other half, interleaved in time — so walking the
// project's rows or sorting the customer's is what a missing index shows
// as. The program "cards" has bigRows cards, each published to another
// customer: a million-member program in small.

// activityRows sets up cust-0 (publications and a redemption of campaign
// "other", card L000 of campaign "cards" with a points transaction, a
// custom event, a v2 membership) and, on PostgreSQL, fills the tables
// around it; it returns the cards campaign's ID and the v2 program's and member's.
func activityRows(t *testing.T, db *entdb.DB, ctx context.Context) (club, program, member string) {
	t.Helper()
	club = campaigntest.WithCodes(t, ctx, "cards", campaigntest.Codes("L", 2)...).ID
	campaigntest.WithCodes(t, ctx, "other", campaigntest.Codes("O", 4)...)
	publishedCustomers(t, ctx, "other", "cust", 1)
	if _, err := publicationpkg.Publish(ctx, fromCampaign("cards", "cust-0", nil), false); err != nil {
		t.Fatal(err)
	}
	c := ent.FromContext(ctx)
	cust, err := customerpkg.ByIDOrSourceID(ctx, "cust-0")
	if err != nil {
		t.Fatal(err)
	}
	card, err := c.Voucher.Query().Where(voucher.Code("L000")).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if card, err = card.Update().SetHolderID(cust.ID).Save(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := campaignpkg.RecordTransaction(ctx, c, card, vouchertransaction.TypePOINTS_ADDITION, 100, 100, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CustomEvent.Create().SetType("visited").SetCustomerID(cust.ID).Save(ctx); err != nil {
		t.Fatal(err)
	}
	program, member = enrolledMember(t, ctx)
	if db.Dialect != dialect.Postgres {
		return club, program, member
	}
	one := func(q string, args ...any) string {
		var id string
		if err := db.SQL.QueryRow(q, args...).Scan(&id); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return id
	}
	back := func(col string) string { return `t."` + col + `" - g * interval '1 second'` }
	// Row g belongs to cust-0 when g is even, else to customer g (cloned
	// first), whose card is the program's card g.
	other := `'cust_a' || substr(md5(g::text), 1, 23)`
	half := func(col, otherwise string) string {
		return `CASE WHEN g % 2 = 0 THEN t."` + col + `" ELSE ` + otherwise + ` END`
	}
	cloneRows(t, db, "customers", cust.ID, bigRows, map[string]string{
		"id": other, "source_id": `'act-' || g`, "created_at": back("created_at")})
	cloneRows(t, db, "vouchers", one(`SELECT id FROM vouchers WHERE code = 'L001'`), bigRows, map[string]string{
		"id": `'v_a' || substr(md5(g::text), 1, 29)`, "code": `'CLUB' || g`, "holder_id": other,
		"created_at": back("created_at")})
	cloneRows(t, db, "publications", one(`SELECT id FROM publications WHERE campaign_id = $1`, club), bigRows, map[string]string{
		"id": `'pub_a' || md5(g::text)`, "source_id": `NULL`, "customer_id": half("customer_id", other),
		"created_at": back("created_at")})
	if _, err := db.SQL.Exec(`INSERT INTO publication_vouchers (publication_id, voucher_id)
		SELECT 'pub_a' || md5(g::text), 'v_a' || substr(md5(g::text), 1, 29) FROM generate_series(1, $1) AS s(g)`, bigRows); err != nil {
		t.Fatal(err)
	}
	cloneRows(t, db, "redemptions", one(`SELECT id FROM redemptions LIMIT 1`), bigRows, map[string]string{
		"id": `'r_a' || substr(md5(g::text), 1, 17)`, "customer_id": half("customer_id", other),
		"created_at": back("created_at")})
	cloneRows(t, db, "voucher_transactions", one(`SELECT id FROM voucher_transactions WHERE voucher_id = $1`, card.ID), bigRows,
		map[string]string{"id": `'vtx_a' || substr(md5(g::text), 1, 17)`,
			"voucher_id": half("voucher_id", `'v_a' || substr(md5(g::text), 1, 29)`), "created_at": back("created_at")})
	cloneRows(t, db, "custom_events", one(`SELECT id FROM custom_events LIMIT 1`), bigRows, map[string]string{
		"id": `'cev_a' || substr(md5(g::text), 1, 23)`, "customer_id": half("customer_id", other),
		"created_at": back("created_at")})
	cloneRows(t, db, "loyalty_activities", one(`SELECT id FROM loyalty_activities WHERE resource_id = $1 LIMIT 1`, member), bigRows,
		map[string]string{"id": `'lambr_a' || substr(md5(g::text), 1, 20)`,
			"resource_id": half("resource_id", `'lmbr_a' || g`), "created_at": back("created_at")})
	analyze(t, db, ctx, "customers", "vouchers", "publications", "publication_vouchers", "redemptions",
		"voucher_transactions", "custom_events", "loyalty_activities")
	return club, program, member
}

// analyze runs VACUUM ANALYZE on tables (outside a transaction: on a
// session of its own, without the request pool's statement_timeout, see
// cloneRows).
func analyze(t *testing.T, db *entdb.DB, ctx context.Context, tables ...string) {
	t.Helper()
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SET statement_timeout = 0`); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if _, err := conn.ExecContext(ctx, `VACUUM ANALYZE "`+table+`"`); err != nil {
			t.Fatal(err)
		}
		// The plans assume what autovacuum keeps in production: pages
		// marked all-visible, so that a count can read the index alone.
		// A transaction still open in the test's database when VACUUM
		// ran (a job the set-up started, on a loaded machine) keeps it
		// from marking them; vacuum again once it has ended.
		for try := 0; try < 50 && !allVisible(t, conn, ctx, table); try++ {
			t.Logf("VACUUM left pages of %s not all-visible; again (try %d)", table, try+1)
			time.Sleep(200 * time.Millisecond)
			if _, err := conn.ExecContext(ctx, `VACUUM "`+table+`"`); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := conn.ExecContext(ctx, `RESET statement_timeout`); err != nil {
		t.Fatal(err)
	}
}

// allVisible reports whether VACUUM marked (nearly) all of table's pages
// all-visible.
func allVisible(t *testing.T, conn *sql.Conn, ctx context.Context, table string) bool {
	t.Helper()
	var pages, visible int64
	if err := conn.QueryRowContext(ctx, `SELECT relpages, relallvisible FROM pg_class WHERE oid = $1::regclass`,
		`"`+table+`"`).Scan(&pages, &visible); err != nil {
		t.Fatal(err)
	}
	return visible*10 >= pages*9
}

// settleVisibility vacuums table until all its pages but two at most are
// marked all-visible (for at most ~10 s). analyze's nine tenths are not enough
// for a deep page: the pages left behind are the newest, which hold the
// rows page 99 skips, and each of their rows is then read from the table
// (an index-only scan's heap fetches), as on a database autovacuum has
// not reached yet.
func settleVisibility(t *testing.T, db *entdb.DB, ctx context.Context, table string) {
	t.Helper()
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var pages, visible int64
	for try := 0; try < 50; try++ {
		if err := conn.QueryRowContext(ctx, `SELECT relpages, relallvisible FROM pg_class WHERE oid = $1::regclass`,
			`"`+table+`"`).Scan(&pages, &visible); err != nil {
			t.Fatal(err)
		}
		if pages-visible <= 2 { // a page or two of rows the test updates
			return
		}
		if try > 0 {
			time.Sleep(200 * time.Millisecond)
		}
		if _, err := conn.ExecContext(ctx, `VACUUM "`+table+`"`); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("VACUUM left pages of %s not all-visible after 50 tries: %d of %d", table, pages-visible, pages)
}

// TestActivityPlansStayWithinThePage: page 1 of a customer's activities
// (with and without total), of a v1 member's activity and of a v2 member's
// activities read a page (and a total capped at ent.TotalCountCap over all
// sources together) on PostgreSQL, whatever the size of the customer's
// history and of the program.
func TestActivityPlansStayWithinThePage(t *testing.T) {
	db, ctx := projectContext(t)
	club, program, member := activityRows(t, db, ctx)
	limit := 50
	big := db.Dialect == dialect.Postgres
	list := func(in customerpkg.CustomerActivityListInput, wantTotal bool) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) {
			in.Limit = &limit
			res, err := customerpkg.ListActivities(ctx, "cust-0", &in)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case !wantTotal && res.Total != 0:
				t.Errorf("total %d counted though not asked for", res.Total)
			case wantTotal && big && res.Total != ent.TotalCountCap:
				t.Errorf("total %d, want the cap %d", res.Total, ent.TotalCountCap)
			case wantTotal && !big && res.Total != len(res.Data):
				t.Errorf("total %d, want the %d activities listed", res.Total, len(res.Data))
			}
			if big && (len(res.Data) != limit || !res.HasMore) {
				t.Errorf("a page of %d activities, has_more %v; want %d, true", len(res.Data), res.HasMore, limit)
			}
		}
	}
	all := list(customerpkg.CustomerActivityListInput{}, true)
	current := list(customerpkg.CustomerActivityListInput{WithoutTotal: true}, false)
	// GET /v1/loyalties/{id}/members/{code}/activity: the holder's
	// activities of the program's campaign (graph/loyaltyv1/activity.go).
	memberV1 := list(customerpkg.CustomerActivityListInput{WithoutTotal: true, CampaignID: &club}, false)
	memberV2 := func(t *testing.T, ctx context.Context) {
		res, err := loyalty.MemberActivities(ctx, program, member, loyaltybase.PageInput{Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		if big && (len(res.Data) != limit || !res.HasMore) {
			t.Errorf("a page of %d member activities, has_more %v; want %d, true", len(res.Data), res.HasMore, limit)
		}
	}
	var cases []listCase
	for _, table := range []string{"publications", "redemptions", "custom_events", "voucher_transactions"} {
		cases = append(cases, listCase{"GET /v1/customers/cust-0/activity (" + table + ")", table, current},
			listCase{"GET /v1/customers/cust-0/activities (" + table + ")", table, all})
	}
	for _, table := range []string{"publications", "vouchers", "redemptions", "voucher_transactions"} {
		cases = append(cases, listCase{"GET /v1/loyalties/cards/members/L000/activity (" + table + ")", table, memberV1})
	}
	cases = append(cases, listCase{"GET /v2/loyalties/programs/{id}/members/{id}/activities", "loyalty_activities", memberV2})
	rctx, rec := recordArgs(ctx, db)
	for _, c := range cases {
		rec.take()
		c.run(t, rctx)
		checkPlans(t, db, c.name, c.table, rec.take())
	}
}
