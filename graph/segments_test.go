package graph

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promoengine/ent"
)

func TestMatchCustomer(t *testing.T) {
	email, name := "ann@vip.example", "Ann"
	cust := &ent.Customer{ID: "cust_1", Email: &email, Name: &name,
		Metadata: map[string]any{"tier": "gold", "visits": json.Number("12"), "score": 4.5}}
	counts := map[string]int{"purchase": 3}
	cond := func(op string, v any) map[string]any { return map[string]any{"conditions": map[string]any{op: v}} }
	cases := []struct {
		name   string
		filter map[string]any
		want   bool
	}{
		{"count more than string", map[string]any{"events.purchase.count": cond("$more_than", []any{"2"})}, true},
		{"count more than equal", map[string]any{"events.purchase.count": cond("$more_than", 3)}, false},
		{"count is", map[string]any{"events.purchase.count": cond("$is", []any{"3"})}, true},
		{"unknown event counts 0", map[string]any{"events.refund.count": cond("$less_than", 1)}, true},
		{"email contains, case-insensitive", map[string]any{"email": cond("$contains", []any{"@VIP."})}, true},
		{"name in", map[string]any{"name": cond("$in", []any{"Bob", "Ann"})}, true},
		{"source_id unknown", map[string]any{"source_id": cond("$is_unknown", true)}, true},
		{"phone has value", map[string]any{"phone": cond("$has_value", true)}, false},
		{"metadata string", map[string]any{"metadata.tier": cond("$is", "gold")}, true},
		{"metadata number vs string", map[string]any{"metadata.visits": cond("$more_than_equal", "12")}, true},
		{"metadata float", map[string]any{"metadata.score": cond("$less_than", 5)}, true},
		{"metadata missing is not", map[string]any{"metadata.nope": cond("$is_not", "x")}, true},
		{"and: one fails", map[string]any{"junction": "and", "metadata.tier": cond("$is", "gold"), "name": cond("$is", "Bob")}, false},
		{"or: one holds", map[string]any{"junction": "or", "metadata.tier": cond("$is", "silver"), "name": cond("$is", "Ann")}, true},
		{"all operators of a key", map[string]any{"events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": 1, "$less_than": 3}}}, false},
	}
	for _, tc := range cases {
		if err := validateCustomerFilter(tc.filter); err != nil {
			t.Fatalf("%s: invalid filter: %v", tc.name, err)
		}
		if got := matchCustomer(tc.filter, cust, counts); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
