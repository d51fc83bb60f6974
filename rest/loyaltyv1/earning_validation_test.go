package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1EarningRuleValidationRuleIsEvaluated: an earning rule's
// validation_rule_id is checked against the event's context before it
// gives points — the customer's metadata and segments, the custom event's
// metadata, the paid order's amount —, a failing rule gives nothing (and
// no transaction), the other rules of the event still earn, and the points
// estimate counts only the rules whose validation rule holds.
func TestV1EarningRuleValidationRuleIsEvaluated(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Gated", 0)["id"].(string)
	vip := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members",
		map[string]any{"customer": map[string]any{"source_id": "vip", "metadata": map[string]any{"vip": true}}}, app)["code"].(string)
	plain := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members",
		map[string]any{"customer": map[string]any{"source_id": "plain", "metadata": map[string]any{"vip": false}}}, app)["code"].(string)
	view := resttest.DefineEvent(t, e, app, "page_view", map[string]any{"seconds": map[string]any{"type": "number", "optional": true}})

	rule := func(name string, rules map[string]any) string {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodPost, "/v1/validation-rules", map[string]any{"name": name, "rules": rules}, app)["id"].(string)
	}
	vipLong := rule("vip and long view", map[string]any{
		"1":     map[string]any{"name": "customer.metadata.vip", "conditions": map[string]any{"$is": []any{true}}},
		"2":     map[string]any{"name": "custom_event.metadata.seconds", "conditions": map[string]any{"$more_than": []any{10}}},
		"logic": "1 and 2"})
	bigOrder := rule("big order", map[string]any{
		"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10000}}}, "logic": "1"})

	rulesPath := "/v1/loyalties/" + id + "/earning-rules"
	if r := e.DoJSON(http.MethodPost, rulesPath, []any{
		map[string]any{"event": "page_view", "custom_event": map[string]any{"schema_id": view["id"]}, "validation_rule_id": vipLong,
			"loyalty": map[string]any{"type": "FIXED", "points": 100}},
		map[string]any{"event": "page_view", "custom_event": map[string]any{"schema_id": view["id"]},
			"loyalty": map[string]any{"type": "FIXED", "points": 1}},
		map[string]any{"event": "order.paid", "validation_rule_id": bigOrder, "loyalty": map[string]any{"type": "FIXED", "points": 50}},
	}, app); r.Status != http.StatusOK {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	send := func(customer string, seconds int) {
		t.Helper()
		if r := e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "page_view",
			"customer": map[string]any{"source_id": customer}, "metadata": map[string]any{"seconds": seconds}}, app); r.Status != http.StatusOK {
			t.Fatalf("event: %d %s", r.Status, r.Body)
		}
	}
	balance := func(code string) float64 {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)["loyalty_card"].(map[string]any)["balance"].(float64)
	}
	accruals := func(code string) int {
		t.Helper()
		return len(resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any))
	}

	send("vip", 5) // the rule's event condition fails: only the ungated rule
	if b := balance(vip); b != 1 {
		t.Errorf("vip after a short view: balance %v, want 1", b)
	}
	send("vip", 30) // both hold
	if b := balance(vip); b != 102 {
		t.Errorf("vip after a long view: balance %v, want 102", b)
	}
	send("plain", 30) // the customer condition fails
	if b := balance(plain); b != 1 {
		t.Errorf("plain after a long view: balance %v, want 1", b)
	}
	if n := accruals(plain); n != 1 {
		t.Errorf("plain has %d transactions, want 1 (a failing rule writes none)", n)
	}

	order := func(source string, amount int) {
		t.Helper()
		if r := e.DoJSON(http.MethodPost, "/v1/orders", map[string]any{"source_id": source, "amount": amount, "status": "PAID",
			"customer": map[string]any{"source_id": "plain"}}, app); r.Status != http.StatusOK {
			t.Fatalf("order: %d %s", r.Status, r.Body)
		}
	}
	order("small", 5000)
	if b := balance(plain); b != 1 {
		t.Errorf("after a small paid order: balance %v, want 1", b)
	}
	order("big", 20000)
	if b := balance(plain); b != 51 {
		t.Errorf("after a big paid order: balance %v, want 51", b)
	}

	estimate := func(amount int) float64 {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/qualifications", map[string]any{
			"customer": map[string]any{"source_id": "plain"}, "order": map[string]any{"amount": amount}}, app)["points_estimation"].(float64)
	}
	if got := estimate(5000); got != 0 {
		t.Errorf("estimate of a small order %v, want 0", got)
	}
	if got := estimate(20000); got != 50 {
		t.Errorf("estimate of a big order %v, want 50", got)
	}
}
