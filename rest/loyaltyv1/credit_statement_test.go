package loyaltyv1_test

import (
	"context"
	"net/http"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/resttest"
)

// countCreditStatements counts the points additions the one-statement
// path served (graph/loyaltyv1/credit_statement.go) until the test ends;
// with off, it serves none and every addition takes the general path.
func countCreditStatements(t *testing.T, off bool) *atomic.Int64 {
	t.Helper()
	var served atomic.Int64
	orig := loyaltyv1.CreditInOneStatement
	loyaltyv1.CreditInOneStatement = func(ctx context.Context, program *string, code string, in loyaltyv1.BalanceInput) (*loyaltyv1.CardBalance, bool, error) {
		if off {
			return nil, false, nil
		}
		out, done, err := orig(ctx, program, code, in)
		if done {
			served.Add(1)
		}
		return out, done, err
	}
	t.Cleanup(func() { loyaltyv1.CreditInOneStatement = orig })
	return &served
}

// TestV1PointsAddedInOneStatementMatchTheGeneralPath runs the same points
// moves — additions dated by the program's rules, never expiring, on
// custom dates earlier and later than the card's next expiry, and
// subtractions between them — on two cards, the first with the
// one-statement path (PostgreSQL) and the second without it: the cards,
// their transactions and their expiration buckets end up the same, and
// the card's next expiry after every move is what its buckets say.
func TestV1PointsAddedInOneStatementMatchTheGeneralPath(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{
		"name": "Same either way", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 2, "rounding_type": "END_OF_MONTH"}}},
	}, app)["id"].(string)
	day := func(n int) string { return time.Now().UTC().AddDate(0, 0, n).Format(time.DateOnly) }
	moves := []map[string]any{
		{"points": 40},
		{"points": 5, "expiration_type": "NON_EXPIRING", "reason": "welcome", "source_id": "s-1"},
		{"points": 7, "expiration_type": "CUSTOM_DATE", "expiration_date": day(400)},
		{"points": 3, "expiration_type": "CUSTOM_DATE", "expiration_date": day(3)}, // earlier: the new next expiry
		{"points": 2, "expiration_type": "CUSTOM_DATE", "expiration_date": day(3)}, // the same day: summed
		{"points": -4}, // spends the soonest bucket
		{"points": 11, "expiration_type": "PROGRAM_RULES"},
		{"points": -20},
		{"points": 6},
	}
	type card struct {
		lc      map[string]any
		txs     []map[string]any
		buckets []any
	}
	run := func(t *testing.T, code string) card {
		for i, m := range moves {
			bal := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members/"+code+"/balance", m, app)
			lc := resttest.CardPoints(t, e, app, code)
			if bal["balance"] != lc["balance"] || bal["total"] != lc["points"] || bal["object"] != "balance" {
				t.Errorf("move %d answered %v, the card holds %v", i, bal, lc)
			}
			soonest := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration?limit=100", nil, app)["data"].([]any)
			var date any
			var points float64
			for _, b := range soonest {
				b := b.(map[string]any)
				if b["bucket"].(map[string]any)["total_points"] == float64(0) {
					continue // spent: no longer counts
				}
				if exp, ok := b["expires_at"]; ok && (date == nil || exp.(string) < date.(string)) {
					date, points = exp, 0
				}
				if exp, ok := b["expires_at"]; ok && exp == date {
					points += b["bucket"].(map[string]any)["total_points"].(float64)
				}
			}
			if lc["next_expiration_date"] != date || (date != nil && lc["next_expiration_points"] != points) {
				t.Errorf("after move %d the card's next expiry is %v/%v, its buckets say %v/%v", i,
					lc["next_expiration_date"], lc["next_expiration_points"], date, points)
			}
		}
		out := card{lc: resttest.CardPoints(t, e, app, code)}
		for _, tx := range resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any) {
			tx := tx.(map[string]any)
			details := tx["details"].(map[string]any)
			delete(details["balance"].(map[string]any)["related_object"].(map[string]any), "id")
			out.txs = append(out.txs, map[string]any{"type": tx["type"], "amount": tx["amount"], "details": details,
				"reason": tx["reason"], "source_id": tx["source_id"], "source": tx["source"]})
		}
		for _, b := range resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration?limit=100", nil, app)["data"].([]any) {
			b := b.(map[string]any)
			out.buckets = append(out.buckets, []any{b["expires_at"], b["bucket"], b["status"]})
		}
		return out
	}

	fast := countCreditStatements(t, false)
	withStatement := run(t, resttest.AddV1Member(t, e, app, id, "fast")["code"].(string))
	additions := int64(0)
	for _, m := range moves {
		if m["points"].(int) > 0 {
			additions++
		}
	}
	if entdbtest.IsPostgres() && fast.Load() != additions {
		t.Errorf("the statement served %d of %d additions on PostgreSQL", fast.Load(), additions)
	}
	countCreditStatements(t, true)
	general := run(t, resttest.AddV1Member(t, e, app, id, "general")["code"].(string))
	if !reflect.DeepEqual(withStatement, general) {
		t.Errorf("the paths differ:\nstatement %v\ngeneral   %v", withStatement, general)
	}
	if general.lc["balance"] != float64(50) {
		t.Errorf("balance %v, want 50", general.lc["balance"])
	}
}

// TestV1PointsAddedToOneCardInParallel sends 60 additions of 2 points to
// one card at once through two server processes: every one succeeds, the
// card holds 120, and the 60 transactions record the balances 2, 4, … 120
// — each move saw the one before it, none was lost or counted twice —
// with the program's expiry counted on the card for all 120 points.
func TestV1PointsAddedToOneCardInParallel(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{
		"name": "Busy card", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 1}}},
	}, app)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "busy")["code"].(string)
	second := e.AnotherServer()
	fast := countCreditStatements(t, false)

	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			url := e.Server.URL
			if i%2 == 1 {
				url = second.URL
			}
			if r := e.DoAt(url, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", []byte(`{"points": 2}`), app); r.Status != http.StatusOK {
				t.Errorf("addition %d: %d %s", i, r.Status, r.Body)
			}
		}()
	}
	statementsBefore, movesBefore := loyaltyv1.CreditCounts()
	close(start)
	wg.Wait()
	statements, moves := loyaltyv1.CreditCounts()
	statements, moves = statements-statementsBefore, moves-movesBefore
	lc := resttest.CardPoints(t, e, app, code)
	if lc["balance"] != float64(120) || lc["points"] != float64(120) || lc["next_expiration_points"] != float64(120) {
		t.Errorf("card after the race %v", lc)
	}
	var balances []float64
	for _, tx := range resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any) {
		balance := tx.(map[string]any)["details"].(map[string]any)["balance"].(map[string]any)
		balances = append(balances, balance["balance"].(float64))
	}
	sort.Float64s(balances)
	for i, b := range balances {
		if b != float64(2*(i+1)) {
			t.Fatalf("transaction balances %v, want 2, 4, … 120", balances)
		}
	}
	if len(balances) != 60 {
		t.Errorf("%d transactions, want 60", len(balances))
	}
	// Both servers run in this test binary, so both count here.
	if entdbtest.IsPostgres() && fast.Load() != 60 {
		t.Errorf("the statement served %d of 60 additions on PostgreSQL", fast.Load())
	}
	// Requests that arrive while a statement runs on the card are combined
	// into the next one (credit_batch.go): 60 requests at once cannot take
	// 60 statements.
	if entdbtest.IsPostgres() && (moves != 60 || statements >= moves) {
		t.Errorf("%d statements wrote %d moves; want 60 moves in fewer statements", statements, moves)
	}
}

// TestV1PointsAddedInOneStatementOnlyWithinATier: in a program with tiers
// Bronze 1–99 and Gold 100+ and a rule that adds 5 on joining any tier,
// additions that move the card into another tier take the general path
// (the tier changes, its rule fires) and one that keeps the card in Bronze
// is the one statement on PostgreSQL.
func TestV1PointsAddedInOneStatementOnlyWithinATier(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Tiered statement", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "tiered")["code"].(string)
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{
		map[string]any{"name": "Bronze", "points": map[string]any{"from": 1, "to": 99}},
		map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app); r.Status != http.StatusOK {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{
		"event": "customer.loyalty.tier.joined", "loyalty_tier": map[string]any{"id": "__ANY__"},
		"loyalty": map[string]any{"type": "FIXED", "points": 5}}}, app); r.Status != http.StatusOK {
		t.Fatalf("rules %d %s", r.Status, r.Body)
	}
	fast := countCreditStatements(t, false)
	for _, p := range []int{10, 20, 70} { // joins Bronze (+5), stays in Bronze at 35, reaches Gold at 105
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": p}, app)
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(105) {
		t.Errorf("balance %v, want 10+5+20+70 = 105", lc["balance"])
	}
	if ts := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/tiers", nil, app)["data"].([]any); len(ts) != 1 ||
		ts[0].(map[string]any)["name"] != "Gold" {
		t.Errorf("member tiers %v", ts)
	}
	want := int64(0)
	if entdbtest.IsPostgres() {
		want = 1
	}
	if fast.Load() != want {
		t.Errorf("the statement served %d additions, want %d (only the one within Bronze)", fast.Load(), want)
	}
}
