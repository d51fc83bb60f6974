package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/rest/resttest"
)

// v2BucketPoints is what the ACTIVE buckets of the setup's card hold.
func v2BucketPoints(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup) int64 {
	t.Helper()
	var sum int64
	for _, b := range e.DB.Client.PointsBucket.Query().Where(pointsbucket.CardID(s.Card),
		pointsbucket.StatusEQ(pointsbucket.StatusACTIVE)).AllX(resttest.SystemCtx()) {
		sum += b.Points
	}
	return sum
}

// TestV2CardPointsExpireByTheDailyJob: points a v2 earning rule awards
// with a rolling expiration are dated in the shared bucket store, spending
// takes them first, and the v1 daily job expires what is left of them
// (once, however many workers run it) as a POINTS_EXPIRED transaction;
// points added by hand never expire. A bad expiration unit is a 400 and
// creates no rule.
func TestV2CardPointsExpireByTheDailyJob(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	purchase := resttest.DefineEvent(t, e, app, "purchase", nil)
	rule := func(unit string) map[string]any {
		return map[string]any{"name": "earn", "status": "ACTIVE",
			"trigger": map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": purchase["id"]}},
			"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10, "card_definition_id": s.CardDef,
				"points_expiration": map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": unit}}}}}}}}}
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/earning-rules", rule("WEEK"), s.H), http.StatusBadRequest, "invalid_payload")
	if n := len(resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/earning-rules", nil, s.H)["data"].([]any)); n != 0 {
		t.Fatalf("a refused rule was stored: %d rules", n)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule("DAY"), s.H)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "purchase", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 5}, s.H)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -3}, s.H)
	if b, in := v2CardBalance(t, e, s), v2BucketPoints(t, e, s); b != 12 || in != 12 {
		t.Fatalf("balance %v, buckets hold %d; want 12 and 12", b, in)
	}

	// Today nothing is due; three days on, the earned bucket (7 left after
	// the spend took from it first) expires, once for three workers.
	if r := resttest.RunDailyPoints(t, e, time.Now(), 1); r.Expired != 0 {
		t.Fatalf("expired today: %+v", r)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().AddDate(0, 0, 3), 3); r.Expired != 1 {
		t.Fatalf("daily job: %+v, want 1 expired bucket", r)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().AddDate(0, 0, 4), 2); r.Expired != 0 {
		t.Fatalf("second run expired again: %+v", r)
	}
	if b, in := v2CardBalance(t, e, s), v2BucketPoints(t, e, s); b != 5 || in != 5 {
		t.Fatalf("after expiry balance %v, buckets %d; want 5 and 5", b, in)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/transactions?order=-created_at", nil, s.H)["data"].([]any)
	if last := txs[0].(map[string]any); last["type"] != string(cardtransaction.TypePOINTS_EXPIRED) || last["amount"] != float64(-7) || last["balance"] != float64(5) {
		t.Errorf("expiry transaction %v", last)
	}
}

// TestV2ParallelSpendsNeverOverdraw: 50 spends of 1 point at once over two
// server processes on a card holding 20: exactly 20 succeed, the rest are
// 400 insufficient_points, no transaction leaves the balance below zero
// and the buckets end as empty as the balance.
func TestV2ParallelSpendsNeverOverdraw(t *testing.T) {
	e, _, servers := resttest.TwoServers(t)
	s := resttest.NewLoyaltySetup(t, e)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 20}, s.H)
	resps := resttest.Burst(e, servers, s.H, 50, func(int) (string, any) { return s.CardPath() + "/points", map[string]any{"points": -1} })
	resttest.WantOutcomes(t, "spends", resps, map[string]int{"200": 20, "400 insufficient_points": 30})
	if b, in := v2CardBalance(t, e, s), v2BucketPoints(t, e, s); b != 0 || in != 0 {
		t.Errorf("balance %v, buckets %d; want 0 and 0", b, in)
	}
	for _, tx := range e.DB.Client.CardTransaction.Query().AllX(resttest.SystemCtx()) {
		if tx.Balance < 0 {
			t.Errorf("a transaction left balance %d", tx.Balance)
		}
	}
}
