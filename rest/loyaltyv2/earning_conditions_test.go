package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2EarningRulesConditionsAreEvaluated: an earning's rules ({logic,
// "1": definition, …}) are stored and answered as sent, refused when they
// are not valid rules, and evaluated before the earning's effects — an
// order under the amount, or a customer without the metadata, earns
// nothing from that earning while the rule's other earnings still do.
func TestV2EarningRulesConditionsAreEvaluated(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	effect := func(points int) []any {
		return []any{map[string]any{"points": map[string]any{"value": points, "card_definition_id": s.CardDef}}}
	}
	body := func(earnings ...any) map[string]any {
		return map[string]any{"name": "cond", "status": "ACTIVE", "trigger": map[string]any{"event": "customer.order.paid"},
			"earnings": earnings}
	}
	big := map[string]any{"logic": "1", "1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10000}}}}
	vip := map[string]any{"logic": "1", "1": map[string]any{"name": "customer.metadata", "property": "vip",
		"conditions": map[string]any{"$is": []any{true}}}}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/earning-rules", body(map[string]any{"effects": effect(1),
		"rules": map[string]any{"logic": "1", "1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$nope": []any{1}}}}}), s.H),
		http.StatusBadRequest, "invalid_payload")
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", body(
		map[string]any{"effects": effect(100), "rules": big},
		map[string]any{"effects": effect(5), "rules": vip},
		map[string]any{"effects": effect(1)}), s.H)
	got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/earning-rules/"+rule["id"].(string), nil, s.H)
	if r := got["earnings"].([]any)[0].(map[string]any)["rules"].(map[string]any); r["logic"] != "1" ||
		r["1"].(map[string]any)["name"] != "order.amount" {
		t.Errorf("stored rules %v", r)
	}

	paid := func(source string, amount int) {
		t.Helper()
		resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": source, "amount": amount, "status": "PAID",
			"customer": map[string]any{"id": s.Cust}}, app)
	}
	paid("small", 5000) // only the unconditioned earning
	if b := v2CardBalance(t, e, s); b != 1 {
		t.Fatalf("balance after a small order %v, want 1", b)
	}
	paid("big", 20000) // + 100
	if b := v2CardBalance(t, e, s); b != 102 {
		t.Errorf("balance after a big order %v, want 102", b)
	}
	resttest.MustOK(t, e, http.MethodPut, "/v1/customers/"+s.Cust, map[string]any{"metadata": map[string]any{"vip": true}}, app)
	paid("vip", 5000) // + 5 + 1
	if b := v2CardBalance(t, e, s); b != 108 {
		t.Errorf("balance after a vip's small order %v, want 108", b)
	}
}
