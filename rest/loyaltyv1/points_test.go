package loyaltyv1_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1PointsBucketsSpendSoonestAndExpireOnce: points added under the
// program's rules (1 month), never expiring and on a custom date land in
// three buckets; a subtraction empties the soonest one first; the daily
// job, run by three workers at once with the clock moved 40 days on,
// expires each due bucket once (a POINTS_EXPIRATION per bucket,
// expired_points counted, expired buckets gone from the list).
func TestV1PointsBucketsSpendSoonestAndExpireOnce(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{
		"name": "Expiring", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 1}}},
	}, app)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "exp")["code"].(string)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	for _, body := range []map[string]any{{"points": 50}, {"points": 30, "expiration_type": "NON_EXPIRING"},
		{"points": 20, "expiration_type": "CUSTOM_DATE", "expiration_date": tomorrow}} {
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", body, app)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": -15}, app)
	list := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration", nil, app)
	data := list["data"].([]any)
	if list["total"] != float64(3) || len(data) != 3 {
		t.Fatalf("buckets %v", list)
	}
	first, last := data[0].(map[string]any), data[2].(map[string]any)
	if first["expires_at"] != tomorrow || first["bucket"].(map[string]any)["total_points"] != float64(5) {
		t.Errorf("the soonest bucket should have paid the 15: %v", first)
	}
	if _, ok := last["expires_at"]; ok || last["bucket"].(map[string]any)["total_points"] != float64(30) {
		t.Errorf("the never-expiring bucket comes last, without expires_at: %v", last)
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(85) || lc["next_expiration_date"] != tomorrow ||
		lc["next_expiration_points"] != float64(5) {
		t.Errorf("card before the job %v", lc)
	}
	// Bad input: a page beyond the bounds, a member of another program.
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration?limit=101", nil, app), 400, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/members/NOPE/points-expiration", nil, app), 404, "not_found")

	// Today nothing is due; 40 days on, two buckets are, expired once by three workers.
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC(), 1); r.Expired != 0 {
		t.Errorf("expired %d buckets today", r.Expired)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 40), 3); r.Expired != 2 {
		t.Errorf("expired %d buckets, want 2", r.Expired)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 41), 2); r.Expired != 0 {
		t.Errorf("a second run expired %d buckets", r.Expired)
	}
	lc := resttest.CardPoints(t, e, app, code)
	if lc["balance"] != float64(30) || lc["expired_points"] != float64(55) {
		t.Errorf("card after the job %v", lc)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any)
	expirations := 0
	for _, tx := range txs {
		if tx.(map[string]any)["type"] == "POINTS_EXPIRATION" {
			expirations++
		}
	}
	if expirations != 2 {
		t.Errorf("%d POINTS_EXPIRATION transactions, want 2", expirations)
	}
	if left := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration", nil, app); left["total"] != float64(1) {
		t.Errorf("after expiry %v", left)
	}
	// The member's activity shows the moves: three additions and the
	// removal (points_added with negative points), two expiries.
	acts := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/activity?limit=100", nil, app)["data"].([]any)
	types := map[string]int{}
	for _, a := range acts {
		types[a.(map[string]any)["type"].(string)]++
	}
	if types["customer.voucher.loyalty_card.points_added"] != 4 || types["customer.voucher.loyalty_card.points_expired"] != 2 {
		t.Errorf("activity types %v", types)
	}
}

// TestV1PendingPointsLifecycle: an order.paid rule with a pending period
// leaves a lopp_ entry instead of points; the entry can be changed,
// activated once (two activations at once through two server processes:
// one credits, the other is refused) or canceled, and the daily job
// activates what is due.
func TestV1PendingPointsLifecycle(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Pending", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "pat")["code"].(string)
	rule := []any{map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 10},
		"pending_points": map[string]any{"period_type": "DAY", "period_value": 3}}}
	mustOK200 := func(r resttest.Response) {
		t.Helper()
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	}
	mustOK200(e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rule, app))
	for _, bad := range []map[string]any{{"period_type": "DAY", "period_value": 91}, {"period_type": "WEEK", "period_value": 1}} {
		r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "order.paid",
			"loyalty": map[string]any{"type": "FIXED", "points": 1}, "pending_points": bad}}, app)
		resttest.WantErrorKey(t, r, 400, "invalid_payload")
	}
	resttest.StaticCampaign(t, e, "Coupons", "P1", "P2", "P3")
	for i, c := range []string{"P1", "P2", "P3"} {
		mustOK200(e.Do(http.MethodPost, "/v1/vouchers/"+c+"/redemption", []byte(`{"customer": {"source_id": "pat"},
			"order": {"source_id": "po-`+string(rune('a'+i))+`", "amount": 1000, "status": "PAID"}}`), app))
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(0) || lc["pending_points"] != float64(30) {
		t.Fatalf("card with pending points %v", lc)
	}
	page := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/pending-points?order=id", nil, app)
	entries := page["data"].([]any)
	if len(entries) != 3 || page["has_more"] != false {
		t.Fatalf("pending %v", page)
	}
	a, b := entries[0].(map[string]any), entries[1].(map[string]any)
	if a["points"] != float64(10) || a["voucher_id"] == nil || a["activates_at"] == nil {
		t.Errorf("entry %v", a)
	}
	if p := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/pending-points?limit=1", nil, app); p["has_more"] != true ||
		p["more_starting_after"] == nil {
		t.Errorf("member page %v", p)
	}
	entry := "/v1/loyalties/members/" + code + "/pending-points/"
	// Change: +5, then a cut that would reach zero is refused.
	if ch := resttest.MustOK(t, e, http.MethodPost, entry+a["id"].(string)+"/balance", map[string]any{"points": 5}, app); ch["total"] != float64(15) {
		t.Errorf("change %v", ch)
	}
	for _, body := range []string{`{"points": -15}`, `{"points": 1.5}`, `{"points": 0}`, `{}`} {
		if r := e.Do(http.MethodPost, entry+a["id"].(string)+"/balance", []byte(body), app); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", body, r.Status, r.Body)
		}
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, entry+"lopp_nope/activate", nil, app), 404, "not_found")

	// Two activations at once: one credits.
	second := e.AnotherServer()
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, base := range []string{e.Server.URL, second.URL} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.DoAt(base, http.MethodPost, entry+a["id"].(string)+"/activate", nil, app)
			statuses[i] = r.Status
			if r.Status == http.StatusBadRequest && r.JSON(t)["key"] != "invalid_pending_points_state" {
				t.Errorf("refusal %s", r.Body)
			}
		}()
	}
	wg.Wait()
	if statuses[0]+statuses[1] != 600 {
		t.Errorf("activations %v, want one 200 and one 400", statuses)
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(15) || lc["pending_points"] != float64(20) {
		t.Errorf("after activation %v", lc)
	}
	// Cancel b: 204, then its state is final.
	resttest.MustNoContent(t, e.Do(http.MethodPost, entry+b["id"].(string)+"/cancel", nil, app))
	resttest.WantErrorKey(t, e.Do(http.MethodPost, entry+b["id"].(string)+"/cancel", nil, app), 400, "invalid_pending_points_state")
	resttest.WantErrorKey(t, e.Do(http.MethodPost, entry+b["id"].(string)+"/activate", nil, app), 400, "invalid_pending_points_state")

	// The third activates when due, once.
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 1), 1); r.Activated != 0 {
		t.Errorf("activated %d before the day", r.Activated)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 3), 2); r.Activated != 1 {
		t.Errorf("activated %d, want 1", r.Activated)
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(25) || lc["pending_points"] != float64(0) {
		t.Errorf("after the job %v", lc)
	}
	if p := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/pending-points", nil, app); len(p["data"].([]any)) != 0 {
		t.Errorf("pending left %v", p)
	}
	// Another project sees none of it.
	other := resttest.App(e.NewProject("Other"))
	resttest.WantErrorKey(t, e.Do(http.MethodPost, entry+a["id"].(string)+"/activate", nil, other), 404, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/pending-points", nil, other), 404, "not_found")
}
