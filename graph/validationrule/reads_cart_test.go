package validationrule

import "testing"

// A redemption reads the catalogue for a redeemable's rules only when a
// rule looks at the order's lines; order-level rules decide without it.
func TestReadsCartOnlyForRulesOnLines(t *testing.T) {
	cases := []struct {
		name  string
		rules map[string]any
		apply map[string]any
		want  bool
	}{
		{"order amount", map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}}}, nil, false},
		{"segment and metadata", map[string]any{
			"1":     map[string]any{"name": "customer.segment", "conditions": map[string]any{"$is": []any{"seg_1"}}},
			"2":     map[string]any{"name": "order.metadata", "property": "channel", "conditions": map[string]any{"$is": []any{"web"}}},
			"logic": "1 and 2"}, nil, false},
		{"items quantity", map[string]any{"1": map[string]any{"name": "order.items.quantity", "conditions": map[string]any{"$more_than": []any{2}}}}, nil, false},
		{"redemption count", map[string]any{"1": map[string]any{"name": "redemption.count.per_customer", "conditions": map[string]any{"$less_than": []any{2}}}}, nil, false},
		{"product price", map[string]any{"1": map[string]any{"name": "order.items.price_any", "conditions": map[string]any{"$more_than": []any{100}}}}, nil, true},
		{"product id", map[string]any{"1": map[string]any{"name": "product.id", "conditions": map[string]any{"$is": []any{"prod_1"}}}}, nil, true},
		{"product metadata", map[string]any{"1": map[string]any{"name": "product.metadata", "property": "color", "conditions": map[string]any{"$is": []any{"red"}}}}, nil, true},
		{"applicable_to", map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1}}}},
			map[string]any{"included": []any{map[string]any{"object": "product", "id": "prod_1"}}}, true},
	}
	for _, c := range cases {
		d, err := Parse(c.rules, "", c.apply)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := d.ReadsCart(); got != c.want {
			t.Errorf("%s: ReadsCart() = %v, want %v", c.name, got, c.want)
		}
	}
}

// A redemption reads the customer's segments and redemption count only for
// rules that look at them.
func TestReadsCustomerRecordsOnlyForTheirRules(t *testing.T) {
	cases := []struct {
		name                  string
		rules                 map[string]any
		segments, redemptions bool
	}{
		{"order amount", map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}}}, false, false},
		{"customer metadata and id", map[string]any{
			"1":     map[string]any{"name": "customer.metadata", "property": "plan", "conditions": map[string]any{"$is": []any{"pro"}}},
			"2":     map[string]any{"name": "customer.id", "conditions": map[string]any{"$is": []any{"cust_1"}}},
			"logic": "1 or 2"}, false, false},
		{"segment", map[string]any{"1": map[string]any{"name": "customer.segment", "conditions": map[string]any{"$is": []any{"seg_1"}}}}, true, false},
		{"per customer", map[string]any{
			"1":     map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1}}},
			"2":     map[string]any{"name": "redemption.count.per_customer", "conditions": map[string]any{"$less_than": []any{2}}},
			"logic": "1 and 2"}, false, true},
	}
	for _, c := range cases {
		d, err := Parse(c.rules, "", nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if seg, red := d.ReadsCustomerRecords(); seg != c.segments || red != c.redemptions {
			t.Errorf("%s: ReadsCustomerRecords() = %v, %v, want %v, %v", c.name, seg, red, c.segments, c.redemptions)
		}
	}
}
