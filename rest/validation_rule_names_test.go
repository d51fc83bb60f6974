package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// The reference writes metadata rules with the key in property
// ({"name": "customer.metadata", "property": "plan"}): such a rule is
// accepted, shown as sent, and checked against the customer's metadata.
func TestCustomerMetadataRuleInTheReferenceForm(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	rules := map[string]any{"1": map[string]any{"name": "customer.metadata", "property": "plan",
		"conditions": map[string]any{"$is": []any{"pro"}}, "rules": map[string]any{}}, "logic": "1"}
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "pro only", "rules": rules}, app), http.StatusOK)
	if r1 := rule["rules"].(map[string]any)["1"].(map[string]any); r1["name"] != "customer.metadata" || r1["property"] != "plan" {
		t.Fatalf("stored rule = %v", rule["rules"])
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "PRO-1", "type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}, "validation_rules": []any{rule["id"]}}, app), http.StatusOK)
	for _, plan := range []string{"pro", "free"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "c-" + plan,
			"metadata": map[string]any{"plan": plan}}, app), http.StatusOK)
	}
	validate := func(plan string) map[string]any {
		return must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{
			"redeemables": []any{map[string]any{"object": "voucher", "id": "PRO-1"}},
			"customer":    map[string]any{"source_id": "c-" + plan, "metadata": map[string]any{"plan": plan}},
			"order":       map[string]any{"amount": 1000}}, app), http.StatusOK)
	}
	if v := validate("pro"); v["valid"] != true {
		t.Errorf("a pro customer: %v", v)
	}
	v := validate("free")
	inapplicable, _ := v["inapplicable_redeemables"].([]any)
	if v["valid"] != false || len(inapplicable) != 1 ||
		inapplicable[0].(map[string]any)["result"].(map[string]any)["error"].(map[string]any)["key"] != "customer_rules_violated" {
		t.Errorf("a free customer: %v", v)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "no key", "rules": map[string]any{
		"1": map[string]any{"name": "order.metadata", "conditions": map[string]any{"$is": []any{"x"}}}}}, app),
		http.StatusBadRequest, "invalid_payload", "must have a 'property'")
}
