package loyaltyv2_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestEventEarnsPointsAndExportsThem: a custom event triggers an earning
// rule that awards points to the member's card; entering a segment
// triggers another; each award is a card transaction, and the card's
// transactions export as CSV through the voucher-transactions export.
func TestEventEarnsPointsAndExportsThem(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	purchase := resttest.DefineEvent(t, e, app, "purchase", nil)
	memberPath := "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member
	memberCard := func() map[string]any {
		t.Helper()
		return resttest.MemberCardAt(t, resttest.MustOK(t, e, http.MethodGet, memberPath, nil, s.H), 0)
	}
	code := memberCard()["code"].(string)

	points := func(n int, trigger map[string]any) map[string]any {
		return map[string]any{"name": "earn", "status": "ACTIVE", "trigger": trigger,
			"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": n, "card_definition_id": s.CardDef}}}}}}
	}
	byEvent := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules",
		points(10, map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": purchase["id"]}}), s.H)["id"].(string)
	draft := points(999, map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": purchase["id"]}})
	draft["status"] = "DRAFT"
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", draft, s.H)
	repeat := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "Repeat buyers", "type": "auto-update",
		"filter": map[string]any{"events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": 1}}}}, app), http.StatusOK)
	bySegment := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules",
		points(100, map[string]any{"event": "customer.segment.entered", "segment": map[string]any{"id": repeat["id"]}}), s.H)["id"].(string)

	send := func(body map[string]any) resttest.Response {
		body["event"] = "purchase"
		body["customer"] = map[string]any{"source_id": "member-1"}
		return e.DoJSON(http.MethodPost, "/v1/events", body, app)
	}
	first := resttest.Must(t, send(map[string]any{"loyalty": map[string]any{"code": code}}), http.StatusOK)
	if first["type"] != "purchase" {
		t.Fatalf("event = %v", first)
	}
	resttest.Must(t, send(map[string]any{}), http.StatusOK) // no card named: the customer's cards earn
	// An unknown card is a 404, and the event is not recorded.
	resttest.WantErrorKey(t, send(map[string]any{"loyalty": map[string]any{"code": "NO-SUCH-CARD"}}), http.StatusNotFound, "not_found")

	card := memberCard()
	if b := card["balance"].(map[string]any)["points"]; b != float64(120) {
		t.Fatalf("card balance = %v, want 10 + 10 + 100 (entering the segment)", b)
	}

	exp := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/transactions/export",
		map[string]any{"parameters": map[string]any{"order": "created_at", "fields": []string{"type", "amount", "balance", "reason"}}}, app), http.StatusOK)
	if in := exp["parameters"].(map[string]any)["filters"].(map[string]any)["voucher_id"].(map[string]any)["conditions"].(map[string]any)["$in"].([]any); in[0] != code {
		t.Errorf("export filter = %v", in)
	}
	var done map[string]any
	for range 500 {
		done = resttest.Must(t, e.Do(http.MethodGet, "/v1/exports/"+exp["id"].(string), nil, app), http.StatusOK)
		if done["status"] != "SCHEDULED" && done["status"] != "IN_PROGRESS" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if done["status"] != "DONE" {
		t.Fatalf("export = %v", done)
	}
	_, csv := resttest.Download(t, e, done["result"].(map[string]any)["url"].(string))
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	want := []string{
		"POINTS_ADDITION,10,10,Earning rule " + byEvent,
		"POINTS_ADDITION,10,20,Earning rule " + byEvent,
		"POINTS_ADDITION,100,120,Earning rule " + bySegment,
	}
	got := slices.Clone(lines[1:])
	slices.Sort(got)
	slices.Sort(want)
	if lines[0] != "type,amount,balance,reason" || !slices.Equal(got, want) {
		t.Errorf("csv:\n%s\nwant rows %v", csv, want)
	}
}

// TestEarningRespectsTriggerLimits: a frequency limit caps awards per card
// in the current period, a cooldown spaces them; bad units are refused.
func TestEarningRespectsTriggerLimits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	login := resttest.DefineEvent(t, e, app, "login", nil)
	rule := func(schema map[string]any, n int, limits map[string]any) map[string]any {
		return map[string]any{"name": "limited", "status": "ACTIVE", "trigger_limits": limits,
			"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": schema["id"]}},
			"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": n, "card_definition_id": s.CardDef}}}}}}
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule(visit, 1, map[string]any{"frequency": map[string]any{"limits": []any{
		map[string]any{"type": "TIME_BASED", "period": map[string]any{"type": "CURRENT_PERIOD", "current_period": map[string]any{"unit": "DAY"}}, "triggers": map[string]any{"max": 2}}}}}), s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule(login, 10, map[string]any{"cooldown": map[string]any{
		"fixed_cooldown": map[string]any{"period": map[string]any{"value": 1, "unit": "HOUR"}}}}), s.H)
	for range 3 {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "login", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	card := resttest.MemberCardAt(t, resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member, nil, s.H), 0)
	if b := card["balance"].(map[string]any)["points"]; b != float64(2*1+1*10) {
		t.Errorf("balance = %v, want 12 (two visits a day, one login an hour)", b)
	}
	bad := rule(visit, 1, map[string]any{"cooldown": map[string]any{"fixed_cooldown": map[string]any{"period": map[string]any{"value": 30, "unit": "HOUR"}}}})
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/earning-rules", bad, s.H), http.StatusBadRequest, "invalid_payload")
	bad = rule(visit, 1, map[string]any{"cooldown": map[string]any{"fixed_cooldown": map[string]any{"period": map[string]any{"value": 1, "unit": "FORTNIGHT"}}}})
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/earning-rules", bad, s.H), http.StatusBadRequest, "invalid_payload")
}
