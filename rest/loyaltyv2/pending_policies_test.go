package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2PendingPointsFixedDatesAndEvents: FIXED_DATES points wait for the
// next calendar date and the daily job activates them then, once;
// EVENT_BASED points join the balance when the customer sends one of the
// event types, and the job cancels them (never credits them) when the
// cancel period ends. Bad policies are 400 and change nothing.
func TestV2PendingPointsFixedDatesAndEvents(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	purchase := resttest.DefineEvent(t, e, app, "purchase", nil)
	for _, bad := range []map[string]any{
		{"type": "FIXED_DATES", "fixed_dates": map[string]any{"dates": []any{map[string]any{"day": 30, "month": 2}}}},
		{"type": "FIXED_DATES", "fixed_dates": map[string]any{"dates": []any{}}},
		{"type": "PERIOD_BASED", "fixed_dates": map[string]any{"dates": []any{map[string]any{"day": 1, "month": 1}}}},
		{"type": "EVENT_BASED", "event_based": map[string]any{"event_types": []any{"visit"},
			"cancel_period": map[string]any{"value": 3, "unit": "DAY"}}},
		{"type": "EVENT_BASED", "event_based": map[string]any{"event_types": []any{purchase["id"]},
			"cancel_period": map[string]any{"value": 13, "unit": "MONTH"}}},
	} {
		resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, defPath, map[string]any{"pending_points": bad}, s.H), http.StatusBadRequest, "invalid_payload")
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10, "card_definition_id": s.CardDef}}}}}}, s.H)
	send := func(event string) {
		t.Helper()
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": event, "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	pending := func() []any {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/pending-points", nil, s.H)["data"].([]any)
	}

	// FIXED_DATES: the next of the dates after today (in 5 days, not 40).
	now := time.Now().UTC()
	soon, later := now.AddDate(0, 0, 5), now.AddDate(0, 0, 40)
	def := resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"pending_points": map[string]any{"type": "FIXED_DATES",
		"fixed_dates": map[string]any{"dates": []any{map[string]any{"day": later.Day(), "month": int(later.Month())},
			map[string]any{"day": soon.Day(), "month": int(soon.Month())}}}}}, s.H)
	if def["pending_points"].(map[string]any)["type"] != "FIXED_DATES" {
		t.Fatalf("pending_points %v", def["pending_points"])
	}
	send("visit")
	if l := pending(); len(l) != 1 || l[0].(map[string]any)["date"] != soon.Format(time.DateOnly) || v2CardBalance(t, e, s) != 0 {
		t.Fatalf("fixed-date entry %v", l)
	}
	if r := resttest.RunDailyPoints(t, e, soon.AddDate(0, 0, -1), 2); r.Activated != 0 {
		t.Errorf("activated %d before the date", r.Activated)
	}
	if r := resttest.RunDailyPoints(t, e, soon, 2); r.Activated != 1 || v2CardBalance(t, e, s) != 10 {
		t.Errorf("activated %d on the date, balance %v", r.Activated, v2CardBalance(t, e, s))
	}

	// EVENT_BASED: a purchase activates what waits; the visit itself does not.
	resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"pending_points": map[string]any{"type": "EVENT_BASED",
		"event_based": map[string]any{"event_types": []any{purchase["id"]}, "cancel_period": map[string]any{"value": 3, "unit": "DAY"}}}}, s.H)
	send("visit")
	send("visit")
	if l := pending(); len(l) != 2 || l[0].(map[string]any)["date"] != now.AddDate(0, 0, 3).Format(time.DateOnly) {
		t.Fatalf("event-based entries %v", l)
	}
	send("purchase")
	if b := v2CardBalance(t, e, s); b != 30 || len(pending()) != 0 {
		t.Fatalf("balance %v after the purchase event, want 30", b)
	}
	send("purchase") // nothing waits: nothing more
	send("visit")
	resttest.RunDailyPoints(t, e, now.AddDate(0, 0, 4), 2)
	if b := v2CardBalance(t, e, s); b != 30 || len(pending()) != 0 {
		t.Errorf("balance %v after the cancel period, want 30 and nothing pending", b)
	}
}

// TestV2PendingPointsThroughGraphQL: the card definition's pendingPoints
// (input and field), cardPendingPoints, activateCardPendingPoints and
// cancelCardPendingPoints run the REST routes' use cases.
func TestV2PendingPointsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	vars := map[string]any{"d": s.CardDef, "p": s.Program, "m": s.Member, "c": s.Card}
	u := e.GraphQL(app, `mutation($d: ID!) { updateCardDefinition(id: $d, input: {pendingPoints: {type: "PERIOD_BASED",
		period_based: {period: {value: 2, unit: "DAY"}}}}) { pendingPoints } }`, vars)
	if len(u.Errors) > 0 || resttest.MustJSON(u.Data) != `{"updateCardDefinition":{"pendingPoints":{"period_based":{"period":{"unit":"DAY","value":2}},"type":"PERIOD_BASED"}}}` {
		t.Fatalf("updateCardDefinition: %+v %s", u.Errors, resttest.MustJSON(u.Data))
	}
	bad := e.GraphQL(app, `mutation($d: ID!) { updateCardDefinition(id: $d, input: {pendingPoints: {type: "SOMETIMES"}}) { id } }`, vars)
	if len(bad.Errors) == 0 {
		t.Errorf("an unknown policy was accepted: %s", resttest.MustJSON(bad.Data))
	}
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10, "card_definition_id": s.CardDef}}}}}}, s.H)
	for range 2 {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	l := e.GraphQL(app, `query($p: ID!, $m: ID!, $c: ID!) { cardPendingPoints(programID: $p, memberID: $m, cardID: $c,
		page: {limit: 10, asc: true}) { data { bucket { id points status } } hasMore } }`, vars)
	data, _ := l.Data["cardPendingPoints"].(map[string]any)["data"].([]any)
	if len(l.Errors) > 0 || len(data) != 2 {
		t.Fatalf("cardPendingPoints: %+v %s", l.Errors, resttest.MustJSON(l.Data))
	}
	move := func(field string, i int) resttest.GraphQLResponse {
		v := map[string]any{"p": s.Program, "m": s.Member, "c": s.Card,
			"b": data[i].(map[string]any)["bucket"].(map[string]any)["id"]}
		return e.GraphQL(app, `mutation($p: ID!, $m: ID!, $c: ID!, $b: ID!) { `+field+`(programID: $p, memberID: $m, cardID: $c,
			bucketID: $b) { card { customerID } transaction { amount } } }`, v)
	}
	if a := move("activateCardPendingPoints", 0); len(a.Errors) > 0 ||
		resttest.MustJSON(a.Data) != `{"activateCardPendingPoints":{"card":{"customerID":"`+s.Cust+`"},"transaction":{"amount":10}}}` {
		t.Errorf("activateCardPendingPoints: %+v %s", a.Errors, resttest.MustJSON(a.Data))
	}
	if again := move("activateCardPendingPoints", 0); len(again.Errors) == 0 {
		t.Errorf("a second activation succeeded: %s", resttest.MustJSON(again.Data))
	}
	if c := move("cancelCardPendingPoints", 1); len(c.Errors) > 0 ||
		resttest.MustJSON(c.Data) != `{"cancelCardPendingPoints":{"card":{"customerID":"`+s.Cust+`"},"transaction":null}}` {
		t.Errorf("cancelCardPendingPoints: %+v %s", c.Errors, resttest.MustJSON(c.Data))
	}
	if b := v2CardBalance(t, e, s); b != 10 {
		t.Errorf("balance %v, want 10", b)
	}
}
