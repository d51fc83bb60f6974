package loyaltyv1_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestV1EarningRulesCRUDAndEarningOnEvents(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Earn", 0)["id"].(string)
	alice := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members",
		map[string]any{"customer": map[string]any{"source_id": "alice", "metadata": map[string]any{"visits": 25}}}, app)
	code := alice["code"].(string)
	pageView := resttest.DefineEvent(t, e, app, "page_view", map[string]any{"seconds": map[string]any{"type": "number", "optional": true}})
	rulesPath := "/v1/loyalties/" + id + "/earning-rules"

	r := e.DoJSON(http.MethodPost, rulesPath, []any{
		map[string]any{"event": "page_view", "custom_event": map[string]any{"schema_id": pageView["id"]},
			"loyalty": map[string]any{"type": "FIXED", "points": "5"}, "source": map[string]any{"banner": "Visit us"}},
		map[string]any{"event": "page_view", "custom_event": map[string]any{"schema_id": pageView["id"]},
			"loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "CUSTOM_EVENT_METADATA",
				"custom_event": map[string]any{"metadata": map[string]any{"every": 10, "points": 2, "property": "seconds"}}}},
		map[string]any{"event": "page_view", "custom_event": map[string]any{"schema_id": pageView["id"]},
			"loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "CUSTOMER_METADATA",
				"customer": map[string]any{"metadata": map[string]any{"every": 10, "points": 1, "property": "visits"}}}},
	}, app)
	if r.Status != http.StatusOK {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var created []any
	if err := json.Unmarshal(r.Body, &created); err != nil {
		t.Fatal(err)
	}
	if len(created) != 3 {
		t.Fatalf("created %v", created)
	}
	fixed := created[0].(map[string]any)
	if !strings.HasPrefix(fixed["id"].(string), "ern_") || fixed["object"] != "earning_rule" || fixed["active"] != true ||
		fixed["loyalty"].(map[string]any)["points"] != float64(5) ||
		fixed["source"].(map[string]any)["object_id"] != id || fixed["source"].(map[string]any)["banner"] != "Visit us" ||
		!strings.HasPrefix(fixed["automation_id"].(string), "auto_") {
		t.Errorf("rule %v", fixed)
	}
	fixedID := fixed["id"].(string)

	// Bad rules are refused and none of the batch is stored.
	for name, rule := range map[string]map[string]any{
		"no loyalty":        {"event": "order.paid"},
		"no event":          {"loyalty": map[string]any{"type": "FIXED", "points": 1}},
		"negative":          {"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": -1}},
		"fraction":          {"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 1.5}},
		"bad type":          {"event": "order.paid", "loyalty": map[string]any{"type": "SOME"}},
		"every zero":        {"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_AMOUNT", "order": map[string]any{"amount": map[string]any{"every": 0, "points": 1}}}},
		"order calc, event": {"event": "page_view", "custom_event": map[string]any{"schema_id": pageView["id"]}, "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_AMOUNT", "order": map[string]any{"amount": map[string]any{"every": 100, "points": 1}}}},
		"pending on event":  {"event": "page_view", "custom_event": map[string]any{"schema_id": pageView["id"]}, "loyalty": map[string]any{"type": "FIXED", "points": 1}, "pending_points": map[string]any{"period_type": "DAY", "period_value": 3}},
		"no schema":         {"event": "page_view", "loyalty": map[string]any{"type": "FIXED", "points": 1}},
	} {
		r := e.DoJSON(http.MethodPost, rulesPath, []any{map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 1}}, rule}, app)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, rulesPath, []any{map[string]any{"event": "customer.segment.entered",
		"segment": map[string]any{"id": "seg_nope"}, "loyalty": map[string]any{"type": "FIXED", "points": 1}}}, app), 404, "not_found")
	list := resttest.MustOK(t, e, http.MethodGet, rulesPath, nil, app)
	if list["total"] != float64(3) || list["data_ref"] != "data" {
		t.Fatalf("list after refused creates %v", list)
	}

	// A page_view of 35 seconds: 5 (fixed) + 6 (35/10×2) + 2 (25 visits/10×1).
	send := func(body map[string]any) {
		t.Helper()
		body["event"] = "page_view"
		body["customer"] = map[string]any{"source_id": "alice"}
		if r := e.DoJSON(http.MethodPost, "/v1/events", body, app); r.Status != http.StatusOK {
			t.Fatalf("event: %d %s", r.Status, r.Body)
		}
	}
	send(map[string]any{"metadata": map[string]any{"seconds": 35}})
	balance := func() float64 {
		return resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)["loyalty_card"].(map[string]any)["balance"].(float64)
	}
	if b := balance(); b != 13 {
		t.Fatalf("balance after the event %v, want 13", b)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions", nil, app)["data"].([]any)
	if len(txs) != 3 || txs[0].(map[string]any)["type"] != "POINTS_ACCRUAL" || txs[0].(map[string]any)["source"] != "Automation" {
		t.Errorf("accruals %v", txs)
	}

	// Disabled rules do not earn; get, update, enable and delete.
	if got := resttest.MustOK(t, e, http.MethodPost, rulesPath+"/"+fixedID+"/disable", map[string]any{}, app); got["active"] != false {
		t.Errorf("disable %v", got)
	}
	for _, rule := range created[1:] {
		resttest.MustOK(t, e, http.MethodPost, rulesPath+"/"+rule.(map[string]any)["id"].(string)+"/disable", nil, app)
	}
	send(map[string]any{"metadata": map[string]any{"seconds": 35}})
	if b := balance(); b != 13 {
		t.Errorf("balance after an event with disabled rules %v, want 13", b)
	}
	upd := resttest.MustOK(t, e, http.MethodPut, rulesPath+"/"+fixedID, map[string]any{"loyalty": map[string]any{"type": "FIXED", "points": 7},
		"event": "order.paid", "active": true}, app)
	if upd["event"] != "page_view" || upd["loyalty"].(map[string]any)["points"] != float64(7) || upd["updated_at"] == nil || upd["active"] != true {
		t.Errorf("update %v", upd)
	}
	send(map[string]any{})
	if b := balance(); b != 20 {
		t.Errorf("balance after the updated rule %v, want 20", b)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, rulesPath+"/"+fixedID, nil, app); got["id"] != fixedID {
		t.Errorf("get %v", got)
	}
	if r := e.Do(http.MethodDelete, rulesPath+"/"+fixedID, nil, app); r.Status != http.StatusNoContent {
		t.Errorf("delete: %d %s", r.Status, r.Body)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, rulesPath+"/"+fixedID, nil, app), 404, "not_found")
	other := resttest.App(e.NewProject("other"))
	resttest.WantErrorKey(t, e.Do(http.MethodGet, rulesPath, nil, other), 404, "not_found")
}

// TestV1SegmentRuleAndAutoJoin: entering a segment earns on a program
// with auto_join, publishing the customer's card first.
func TestV1SegmentRuleAndAutoJoin(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	prg := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{"name": "Auto", "auto_join": true,
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0}}}, app)
	id := prg["id"].(string)
	resttest.DefineEvent(t, e, app, "purchase", nil)
	seg := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Buyers", "type": "auto-update",
		"filter": map[string]any{"events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": 0}}}}, app)
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "customer.segment.entered",
		"segment": map[string]any{"id": seg["id"]}, "loyalty": map[string]any{"type": "FIXED", "points": 50}}}, app); r.Status != http.StatusOK {
		t.Fatalf("rule: %d %s", r.Status, r.Body)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "purchase", "customer": map[string]any{"source_id": "dan"}}, app); r.Status != http.StatusOK {
		t.Fatalf("event: %d %s", r.Status, r.Body)
	}
	members := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members?customer=dan", nil, app)["vouchers"].([]any)
	if len(members) != 1 || members[0].(map[string]any)["loyalty_card"].(map[string]any)["balance"] != float64(50) {
		t.Errorf("auto-joined member %v", members)
	}
}
