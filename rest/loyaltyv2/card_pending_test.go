package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2PendingPointsWaitAndActivateOnce: under a PERIOD_BASED card
// definition earned points wait as PENDING entries (the balance does not
// move); an entry is activated or canceled by hand once, and the daily job
// activates the due ones once however many workers run it.
func TestV2PendingPointsWaitAndActivateOnce(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, defPath, map[string]any{"pending_points": map[string]any{"type": "PERIOD_BASED",
		"period_based": map[string]any{"period": map[string]any{"value": 91, "unit": "DAY"}}}}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, defPath, map[string]any{"pending_points": map[string]any{"type": "PERIOD_BASED"}}, s.H),
		http.StatusBadRequest, "invalid_payload")
	def := resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"pending_points": map[string]any{"type": "PERIOD_BASED",
		"period_based": map[string]any{"period": map[string]any{"value": 2, "unit": "DAY"}}}}, s.H)
	if resttest.MustJSON(def["pending_points"]) != `{"period_based":{"period":{"unit":"DAY","value":2}},"type":"PERIOD_BASED"}` {
		t.Fatalf("pending_points %v", def["pending_points"])
	}
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10, "card_definition_id": s.CardDef}}}}}}, s.H)
	earn := func() {
		t.Helper()
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	earn()
	earn()
	if b := v2CardBalance(t, e, s); b != 0 {
		t.Fatalf("balance %v while the points are pending, want 0", b)
	}
	list := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/pending-points?order=date", nil, s.H)["data"].([]any)
	if len(list) != 2 {
		t.Fatalf("pending points %v", list)
	}
	first := list[0].(map[string]any)
	if first["status"] != "PENDING" || first["date"] != time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly) ||
		resttest.MustJSON(first["points"]) != `{"total":10}` {
		t.Errorf("pending entry %v", first)
	}
	pending := s.CardPath() + "/pending-points/"
	a := resttest.MustOK(t, e, http.MethodPost, pending+first["id"].(string)+"/activate", nil, s.H)
	if tx := a["transaction"].(map[string]any); tx["amount"] != float64(10) || tx["balance"] != float64(10) {
		t.Errorf("activation %v", a)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, pending+first["id"].(string)+"/activate", nil, s.H), http.StatusBadRequest, "invalid_pending_points_bucket_status")
	second := list[1].(map[string]any)["id"].(string)
	if c := resttest.MustOK(t, e, http.MethodPost, pending+second+"/cancel", nil, s.H); c["transaction"] != nil {
		t.Errorf("cancellation %v", c)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, pending+second+"/activate", nil, s.H), http.StatusBadRequest, "invalid_pending_points_bucket_status")
	resttest.WantErrorKey(t, e.Do(http.MethodPost, pending+"lcppb_0123456789abcdef/cancel", nil, s.H), http.StatusNotFound, "not_found")
	if b := v2CardBalance(t, e, s); b != 10 {
		t.Fatalf("balance %v, want 10", b)
	}

	// The daily job: not before the day, then once (two workers, twice).
	earn()
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 1), 2); r.Activated != 0 {
		t.Errorf("activated %d before the day", r.Activated)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 3), 2); r.Activated != 1 {
		t.Errorf("activated %d, want 1", r.Activated)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 3), 2); r.Activated != 0 {
		t.Errorf("activated %d again", r.Activated)
	}
	if b := v2CardBalance(t, e, s); b != 20 {
		t.Errorf("balance %v after the job, want 20", b)
	}
	if l := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/pending-points", nil, s.H)["data"].([]any); len(l) != 0 {
		t.Errorf("still pending %v", l)
	}
}
