package publication

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// TestPublicationPickReadsOnlyUnpublishedVouchers: on PostgreSQL the
// single statement's pick reads the campaign's unpublished vouchers off
// the partial index voucher_unpublished_campaign_id_id, so that it does
// not walk past published vouchers, however much of the campaign is
// published. (Before, in a campaign published to 90%, PostgreSQL walked
// (campaign_id, publish_count, id), an index of every voucher that each
// publication wrote to; with statistics older than the publications it
// walked (campaign_id, id) and threw away about nine rows per pick.)
func TestPublicationPickReadsOnlyUnpublishedVouchers(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication and its plan are PostgreSQL's")
	}
	db, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "wear", "W0")
	const n = 10000
	// Set-up, not a request: without the pool's statement_timeout.
	setup, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Rollback() //nolint:errcheck // after Commit it is a no-op
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := setup.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	exec(`SET LOCAL statement_timeout = 0`)
	// n more vouchers like W0 at random IDs; nine in ten get published below.
	exec(`INSERT INTO vouchers SELECT r.* FROM vouchers t, generate_series(1, $1::int) g,
		jsonb_populate_record(NULL::vouchers, to_jsonb(t) || jsonb_build_object('id', 'v_' || md5(g::text), 'code', 'W' || g)) r
		WHERE t.code = 'W0'`, n)
	if err := setup.Commit(); err != nil {
		t.Fatal(err)
	}
	sqlExec := func(q string) {
		t.Helper()
		if _, err := db.SQL.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	// Most of the campaign published, then vacuumed and analyzed. With
	// statistics older than the publications PostgreSQL may still walk
	// (campaign_id, id) or the primary key and filter, as it did before:
	// the paths cost it the same when it believes every voucher
	// unpublished.
	sqlExec(`UPDATE vouchers SET publish_count = 1 WHERE code <> 'W0' AND abs(hashtext(id)) % 10 <> 0`)
	sqlExec(`VACUUM ANALYZE vouchers`)
	checkPicks(t, db, ctx, "fresh statistics")
}

// checkPicks runs the single statement ten times under EXPLAIN ANALYZE
// (rolled back) and checks how its pick read the vouchers.
func checkPicks(t *testing.T, db *entdb.DB, ctx context.Context, state string) {
	t.Helper()
	v, _ := viewer.FromContext(ctx)
	for i := range 10 {
		tx, err := db.SQL.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		err = tx.QueryRowContext(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+PublishStatement(1, true),
			v.ProjectID, "wear", time.Now().UTC(), pulid.New(pulid.PrefixVoucher, 32), customer.DefaultID(),
			fmt.Sprintf("wear-%d", i), publication.DefaultID(), "{}", "API", nil, false, pulid.Ordered(0)).Scan(&out)
		_ = tx.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		var plans []struct{ Plan map[string]any }
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("plan %s: %v", out, err)
		}
		picks := 0
		var walk func(node map[string]any, cte string)
		walk = func(node map[string]any, cte string) {
			if name, _ := node["Subplan Name"].(string); name == "CTE pick_from" || name == "CTE pick_wrapped" {
				cte = name
			}
			if rel, _ := node["Relation Name"].(string); rel == "vouchers" && cte != "" {
				if loops, _ := node["Actual Loops"].(float64); loops > 0 {
					picks++
					index, _ := node["Index Name"].(string)
					removed, _ := node["Rows Removed by Filter"].(float64)
					if index != "voucher_unpublished_campaign_id_id" || removed > 0 {
						t.Errorf("%s: %s read vouchers with %s %q and threw %v rows away; want index voucher_unpublished_campaign_id_id and none",
							state, cte, node["Node Type"], index, removed)
					}
				}
			}
			kids, _ := node["Plans"].([]any)
			for _, k := range kids {
				walk(k.(map[string]any), cte)
			}
		}
		walk(plans[0].Plan, "")
		if picks == 0 {
			t.Fatalf("no pick read the vouchers:\n%s", out)
		}
	}
}
