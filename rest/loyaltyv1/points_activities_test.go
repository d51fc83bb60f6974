package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1PointsMovesAreCustomerActivities: every points move of a v1 card
// is one customer.voucher.loyalty_card.* activity of its holder, written
// with the move — an addition (also by the one-statement path on
// PostgreSQL) and a removal as points_added with the signed points, a
// pending entry as pending_points.added and its activation as
// pending_points.activated, a transfer as points_transferred on both
// sides — listed by /v1/customers/{id}/activity (the type filter takes
// them) and the member's activity list.
func TestV1PointsMovesAreCustomerActivities(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Acts", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "ann")["code"].(string)
	other := resttest.AddV1Member(t, e, app, id, "bob")["code"].(string)
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "order.paid",
		"loyalty":        map[string]any{"type": "FIXED", "points": 10},
		"pending_points": map[string]any{"period_type": "DAY", "period_value": 3}}}, app); r.Status != http.StatusOK {
		t.Fatalf("rule: %d %s", r.Status, r.Body)
	}

	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 50}, app)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": -20}, app)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+other+"/balance", map[string]any{"points": 40}, app)
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/members/"+code+"/transfers",
		[]any{map[string]any{"code": other, "points": 15, "source_id": "t-1"}}, app); r.Status != http.StatusOK {
		t.Fatalf("transfer: %d %s", r.Status, r.Body)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": "po-1", "amount": 1000, "status": "PAID",
		"customer": map[string]any{"source_id": "ann"}}, app)
	pending := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/pending-points", nil, app)["data"].([]any)
	if len(pending) != 1 {
		t.Fatalf("pending entries %v", pending)
	}
	if r := e.Do(http.MethodPost, "/v1/loyalties/members/"+code+"/pending-points/"+pending[0].(map[string]any)["id"].(string)+"/activate", nil, app); r.Status != http.StatusOK {
		t.Fatalf("activate: %d %s", r.Status, r.Body)
	}

	list := func(path string) []map[string]any {
		t.Helper()
		var out []map[string]any
		for _, a := range resttest.MustOK(t, e, http.MethodGet, path, nil, app)["data"].([]any) {
			out = append(out, a.(map[string]any))
		}
		return out
	}
	byType := map[string][]map[string]any{}
	for _, a := range list("/v1/customers/ann/activities?limit=100&order=created_at") {
		byType[a["type"].(string)] = append(byType[a["type"].(string)], a)
	}
	added := byType["customer.voucher.loyalty_card.points_added"]
	if len(added) != 2 || added[0]["data"].(map[string]any)["balance"].(map[string]any)["points"] != float64(50) ||
		added[1]["data"].(map[string]any)["balance"].(map[string]any)["points"] != float64(-20) {
		t.Errorf("points_added activities %v", added)
	}
	for typ, want := range map[string]int{"customer.voucher.loyalty_card.points_transferred": 1,
		"customer.voucher.loyalty_card.pending_points.added": 1, "customer.voucher.loyalty_card.pending_points.activated": 1} {
		if got := len(byType[typ]); got != want {
			t.Errorf("%d %s activities, want %d (all: %v)", got, typ, want, byType)
		}
	}
	if p := byType["customer.voucher.loyalty_card.pending_points.added"]; len(p) == 1 &&
		p[0]["data"].(map[string]any)["pending_points"].(map[string]any)["points"] != float64(10) {
		t.Errorf("pending_points.added %v", p[0])
	}
	if got := list("/v1/customers/ann/activity?type=customer.voucher.loyalty_card.pending_points.added"); len(got) != 1 {
		t.Errorf("type filter pending_points.added: %v", got)
	}
	if got := list("/v1/customers/ann/activity?type=customer.voucher.loyalty_card.pending_points.canceled"); len(got) != 0 {
		t.Errorf("type filter pending_points.canceled: %v", got)
	}
	member := map[string]int{}
	for _, a := range list("/v1/loyalties/" + id + "/members/" + code + "/activity?limit=100") {
		member[a["type"].(string)]++
	}
	if member["customer.voucher.loyalty_card.points_added"] != 2 || member["customer.voucher.loyalty_card.pending_points.added"] != 1 ||
		member["customer.voucher.loyalty_card.pending_points.activated"] != 1 {
		t.Errorf("member activity types %v", member)
	}
	if got := byType["customer.voucher.loyalty_card.points_transferred"]; len(list("/v1/customers/bob/activity?limit=100&type=customer.voucher.loyalty_card.points_transferred")) != 1 {
		t.Errorf("the destination's transfer activity is missing (source: %v)", got)
	}
}
