package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// The strict check (resttest/reference.go) accepts the real service's own
// example answers of the most used operations once the documents' known
// defects are patched: the patches and the strict-client reading
// (optional members may be null, oneOf read as anyOf) are not stricter
// than the service itself.
func TestReferenceCheckAcceptsTheServiceExamples(t *testing.T) {
	for _, op := range [][2]string{
		{"GET", "/v1/customers/{customerId}"}, {"GET", "/v1/vouchers/{code}"}, {"POST", "/v1/vouchers"},
		{"GET", "/v1/campaigns/{campaignId}"}, {"POST", "/v1/publications"},
		{"GET", "/v1/products/{productId}"}, {"GET", "/v1/categories/{categoryId}"},
		{"POST", "/v1/oauth/introspect"}, {"GET", "/v1/segments"}, {"POST", "/client/v1/publish"},
	} {
		body, err := resttest.ReferenceExample(op[0], op[1], 200)
		if err != nil {
			t.Fatalf("%s %s: %v", op[0], op[1], err)
		}
		if body == nil {
			t.Errorf("%s %s: the document has no example", op[0], op[1])
			continue
		}
		violations, err := resttest.CheckReference(op[0], op[1], 200, "application/json", body)
		if err != nil {
			t.Fatalf("%s %s: %v", op[0], op[1], err)
		}
		for _, v := range violations {
			t.Errorf("the service's own example fails the check: %s", v)
		}
	}
}

// The check finds what a strict client refuses: a missing required
// member (summary.orders), a required member set to null, a wrong type,
// a value outside an enum, and a status the operation does not document.
func TestReferenceCheckFindsDeviations(t *testing.T) {
	example, err := resttest.ReferenceExample("GET", "/v1/customers/{customerId}", 200)
	if err != nil || example == nil {
		t.Fatalf("customer example: %v", err)
	}
	mutate := func(change func(c map[string]any)) []byte {
		var c map[string]any
		if err := json.Unmarshal(example, &c); err != nil {
			t.Fatal(err)
		}
		change(c)
		b, _ := json.Marshal(c)
		return b
	}
	for _, tc := range []struct {
		name, pointer, reason string
		body                  []byte
	}{
		{"missing summary.orders", "/summary/orders", "required",
			mutate(func(c map[string]any) { delete(c["summary"].(map[string]any), "orders") })},
		{"null required last_order_amount", "/summary/orders/last_order_amount", "nullable", mutate(func(c map[string]any) {
			c["summary"].(map[string]any)["orders"].(map[string]any)["last_order_amount"] = nil
		})},
		{"wrong type", "/created_at", "type", mutate(func(c map[string]any) { c["created_at"] = 5 })},
		{"enum", "/object", "enum", mutate(func(c map[string]any) { c["object"] = "client" })},
	} {
		violations, err := resttest.CheckReference("GET", "/v1/customers/:customerId", 200, "application/json", tc.body)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, v := range violations {
			found = found || (v.Pointer == tc.pointer && strings.Contains(v.Reason, tc.reason))
		}
		if !found {
			t.Errorf("%s: want a violation at %s (%s), got %v", tc.name, tc.pointer, tc.reason, violations)
		}
	}
	violations, _ := resttest.CheckReference("POST", "/v1/customers", 201, "application/json", example)
	if len(violations) != 1 || !strings.Contains(violations[0].Reason, "status not documented") {
		t.Errorf("a 201 for POST /v1/customers (documented 200): got %v", violations)
	}
}
