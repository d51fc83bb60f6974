package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestValidationFindsItsCustomer: a validation names its customer by
// source_id or by ID (read in the same statement as the vouchers); rules
// see that customer and no other project's customer of the same
// source_id; an unknown customer ID is a 404 whether or not a code exists.
func TestValidationFindsItsCustomer(t *testing.T) {
	e := resttest.New(t)
	a := resttest.App(e.Project)
	b := resttest.App(e.NewProject("B"))
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "alice"}, b), http.StatusOK)
	alice := must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "alice"}, a), http.StatusOK)["id"].(string)
	discountCode(t, e, a, "Alice only", "ALICE", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "alice",
		"rules": map[string]any{"1": map[string]any{"name": "customer.id", "conditions": map[string]any{"$is": []any{alice}}}}}, a), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+rule["id"].(string)+"/assignments", map[string]any{"campaign": "Alice only"}, a), http.StatusOK)

	validate := func(customer map[string]any, code string) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{map[string]any{"id": code}},
			"order": map[string]any{"amount": 1000}, "customer": customer}, a)
	}
	for _, named := range []map[string]any{{"source_id": "alice"}, {"id": alice}} {
		got := must(t, validate(named, "ALICE"), http.StatusOK)
		if got["valid"] != true || got["order"].(map[string]any)["customer_id"] != alice {
			t.Fatalf("customer %v: want valid for alice %s, got %s", named, alice, mustJSON(got))
		}
	}
	got := must(t, validate(map[string]any{"source_id": "bob"}, "ALICE"), http.StatusOK)
	r := got["redeemables"].([]any)[0].(map[string]any)
	if got["valid"] != false || r["result"].(map[string]any)["error"].(map[string]any)["key"] != "missing_customer" {
		t.Fatalf("a validation for unknown bob (not stored) has no customer for the rule: %s", mustJSON(got))
	}
	legacy := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/ALICE/validate", map[string]any{"order": map[string]any{"amount": 1000},
		"customer": map[string]any{"source_id": "alice"}}, a), http.StatusOK)
	if legacy["valid"] != true {
		t.Fatalf("legacy validation for alice: %s", mustJSON(legacy))
	}
	for _, code := range []string{"ALICE", "NO-SUCH-CODE"} {
		wantError(t, validate(map[string]any{"id": "cust_0000000000000000000000"}, code), http.StatusNotFound, "not_found", "cust_0000000000000000000000")
	}
}
