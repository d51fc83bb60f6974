package validationrule

import (
	"encoding/json"
	"testing"
)

// TestConditions covers every rule name × operator, passing and failing.
func TestConditions(t *testing.T) {
	items := []Item{
		{ProductID: "prod_1", SKUID: "sku_1", Quantity: 2, Amount: 2000},
		{ProductID: "prod_2", Quantity: 3, Amount: 3000},
	}
	full := Context{
		OrderAmount: amount(10000), OrderItems: items,
		OrderMetadata: map[string]any{"tier": "gold", "n": 5.0, "vip": true, "a.b": "dotted", "nil": nil,
			"jn": json.Number("7"), "i": 3},
		RedemptionMetadata:  map[string]any{"channel": "web-shop", "score": 10.0},
		CustomerID:          "cust_1",
		CustomerSegments:    []string{"seg_a", "seg_b"},
		CustomerMetadata:    map[string]any{"plan": "pro", "age": 41.0},
		CustomerRedemptions: 1,
	}
	const (
		O = KeyOrderRules
		C = KeyCustomerRules
		R = KeyRedemptionRules
	)
	tests := []struct {
		name, conds string
		key         string // "" = passes
	}{
		// order.amount (10000)
		{"order.amount", `{"$is":[10000]}`, ""},
		{"order.amount", `{"$is":[1, 10000.0]}`, ""},
		{"order.amount", `{"$is":[9999]}`, O},
		{"order.amount", `{"$is_not":[1, 2]}`, ""},
		{"order.amount", `{"$is_not":[1, 10000]}`, O},
		{"order.amount", `{"$more_than":[9999]}`, ""},
		{"order.amount", `{"$more_than":[10000]}`, O},
		{"order.amount", `{"$more_than_or_equal":[10000]}`, ""},
		{"order.amount", `{"$more_than_or_equal":[10001]}`, O},
		{"order.amount", `{"$less_than":[10001]}`, ""},
		{"order.amount", `{"$less_than":[10000]}`, O},
		{"order.amount", `{"$less_than_or_equal":[10000]}`, ""},
		{"order.amount", `{"$less_than_or_equal":[9999]}`, O},
		{"order.amount", `{"$more_than":[5000],"$less_than":[20000]}`, ""},
		{"order.amount", `{"$more_than":[5000],"$less_than":[10000]}`, O}, // all operators must hold
		// order.items.count (2 lines)
		{"order.items.count", `{"$is":[2]}`, ""},
		{"order.items.count", `{"$is":[3]}`, O},
		{"order.items.count", `{"$is_not":[3]}`, ""},
		{"order.items.count", `{"$is_not":[2]}`, O},
		{"order.items.count", `{"$more_than":[1]}`, ""},
		{"order.items.count", `{"$more_than":[2]}`, O},
		{"order.items.count", `{"$more_than_or_equal":[2]}`, ""},
		{"order.items.count", `{"$more_than_or_equal":[3]}`, O},
		{"order.items.count", `{"$less_than":[3]}`, ""},
		{"order.items.count", `{"$less_than":[2]}`, O},
		{"order.items.count", `{"$less_than_or_equal":[2]}`, ""},
		{"order.items.count", `{"$less_than_or_equal":[1]}`, O},
		// order.items.quantity (5 units)
		{"order.items.quantity", `{"$is":[5]}`, ""},
		{"order.items.quantity", `{"$is":[2]}`, O},
		{"order.items.quantity", `{"$is_not":[2]}`, ""},
		{"order.items.quantity", `{"$is_not":[5]}`, O},
		{"order.items.quantity", `{"$more_than":[4]}`, ""},
		{"order.items.quantity", `{"$more_than":[5]}`, O},
		{"order.items.quantity", `{"$more_than_or_equal":[5]}`, ""},
		{"order.items.quantity", `{"$more_than_or_equal":[6]}`, O},
		{"order.items.quantity", `{"$less_than":[6]}`, ""},
		{"order.items.quantity", `{"$less_than":[5]}`, O},
		{"order.items.quantity", `{"$less_than_or_equal":[5]}`, ""},
		{"order.items.quantity", `{"$less_than_or_equal":[4]}`, O},
		// order.items.any / product.id
		{"order.items.any", `{"$is":["prod_2"]}`, ""},
		{"order.items.any", `{"$is":["sku_1"]}`, ""},
		{"order.items.any", `{"$is":["prod_9"]}`, O},
		{"order.items.any", `{"$in":["prod_9","prod_1"]}`, ""},
		{"order.items.any", `{"$in":["prod_9"]}`, O},
		{"order.items.any", `{"$is_not":["prod_9"]}`, ""},
		{"order.items.any", `{"$is_not":["prod_1"]}`, O},
		{"order.items.any", `{"$not_in":["prod_8","prod_9"]}`, ""},
		{"order.items.any", `{"$not_in":["prod_9","sku_1"]}`, O},
		{"product.id", `{"$is":[{"object":"product","id":"prod_1"}]}`, ""},
		{"product.id", `{"$is":[{"object":"sku","id":"sku_1"}]}`, ""},
		{"product.id", `{"$is":[{"object":"sku","id":"prod_1"}]}`, O}, // object must match
		{"product.id", `{"$in":["prod_2"]}`, ""},
		{"product.id", `{"$in":["prod_3"]}`, O},
		{"product.id", `{"$is_not":[{"object":"product","id":"prod_3"}]}`, ""},
		{"product.id", `{"$is_not":["prod_2"]}`, O},
		{"product.id", `{"$not_in":["prod_3"]}`, ""},
		{"product.id", `{"$not_in":["prod_3","prod_2"]}`, O},
		// customer.segment (seg_a, seg_b)
		{"customer.segment", `{"$is":["seg_b"]}`, ""},
		{"customer.segment", `{"$is":["seg_c"]}`, C},
		{"customer.segment", `{"$in":["seg_c","seg_a"]}`, ""},
		{"customer.segment", `{"$in":["seg_c"]}`, C},
		{"customer.segment", `{"$is_not":["seg_c"]}`, ""},
		{"customer.segment", `{"$is_not":["seg_a"]}`, C},
		{"customer.segment", `{"$not_in":["seg_c","seg_d"]}`, ""},
		{"customer.segment", `{"$not_in":["seg_c","seg_b"]}`, C},
		// customer.id
		{"customer.id", `{"$is":["cust_1"]}`, ""},
		{"customer.id", `{"$is":["cust_2"]}`, C},
		{"customer.id", `{"$in":["cust_2","cust_1"]}`, ""},
		{"customer.id", `{"$in":["cust_2"]}`, C},
		{"customer.id", `{"$is_not":["cust_2"]}`, ""},
		{"customer.id", `{"$is_not":["cust_1"]}`, C},
		{"customer.id", `{"$not_in":["cust_2"]}`, ""},
		{"customer.id", `{"$not_in":["cust_1"]}`, C},
		// redemption.count.per_customer: 1 earlier + this one = 2
		{"redemption.count.per_customer", `{"$is":[2]}`, ""},
		{"redemption.count.per_customer", `{"$is":[1]}`, R},
		{"redemption.count.per_customer", `{"$is_not":[1]}`, ""},
		{"redemption.count.per_customer", `{"$is_not":[2]}`, R},
		{"redemption.count.per_customer", `{"$more_than":[1]}`, ""},
		{"redemption.count.per_customer", `{"$more_than":[2]}`, R},
		{"redemption.count.per_customer", `{"$more_than_or_equal":[2]}`, ""},
		{"redemption.count.per_customer", `{"$more_than_or_equal":[3]}`, R},
		{"redemption.count.per_customer", `{"$less_than":[3]}`, ""},
		{"redemption.count.per_customer", `{"$less_than":[2]}`, R},
		{"redemption.count.per_customer", `{"$less_than_or_equal":[2]}`, ""},
		{"redemption.count.per_customer", `{"$less_than_or_equal":[1]}`, R}, // "once per customer", already used
		// order.metadata.<key>
		{"order.metadata.tier", `{"$is":["gold"]}`, ""},
		{"order.metadata.tier", `{"$is":["silver"]}`, O},
		{"order.metadata.tier", `{"$in":["silver","gold"]}`, ""},
		{"order.metadata.tier", `{"$in":["silver"]}`, O},
		{"order.metadata.tier", `{"$is_not":["silver"]}`, ""},
		{"order.metadata.tier", `{"$is_not":["gold"]}`, O},
		{"order.metadata.tier", `{"$not_in":["silver","bronze"]}`, ""},
		{"order.metadata.tier", `{"$not_in":["silver","gold"]}`, O},
		{"order.metadata.n", `{"$is":[5]}`, ""},
		{"order.metadata.n", `{"$is":["5"]}`, O}, // no string/number coercion
		{"order.metadata.jn", `{"$is":[7]}`, ""},
		{"order.metadata.i", `{"$in":[3]}`, ""},
		{"order.metadata.vip", `{"$is":[true]}`, ""},
		{"order.metadata.vip", `{"$is":[false]}`, O},
		{"order.metadata.vip", `{"$is":["true"]}`, O},
		{"order.metadata.n", `{"$more_than":[4.5]}`, ""},
		{"order.metadata.n", `{"$more_than":[5]}`, O},
		{"order.metadata.n", `{"$more_than_or_equal":[5]}`, ""},
		{"order.metadata.n", `{"$more_than_or_equal":[5.1]}`, O},
		{"order.metadata.n", `{"$less_than":[6]}`, ""},
		{"order.metadata.n", `{"$less_than":[5]}`, O},
		{"order.metadata.n", `{"$less_than_or_equal":[5]}`, ""},
		{"order.metadata.n", `{"$less_than_or_equal":[4]}`, O},
		{"order.metadata.tier", `{"$more_than":[1]}`, O}, // not a number
		{"order.metadata.tier", `{"$contains":["ol"]}`, ""},
		{"order.metadata.tier", `{"$contains":["x","ol"]}`, ""},
		{"order.metadata.tier", `{"$contains":["x"]}`, O},
		{"order.metadata.n", `{"$contains":["5"]}`, O}, // not a string
		{"order.metadata.tier", `{"$starts_with":["go"]}`, ""},
		{"order.metadata.tier", `{"$starts_with":["ld"]}`, O},
		{"order.metadata.tier", `{"$ends_with":["ld"]}`, ""},
		{"order.metadata.tier", `{"$ends_with":["go"]}`, O},
		{"order.metadata.tier", `{"$is_defined":[]}`, ""},
		{"order.metadata.tier", `{"$is_defined":[true]}`, ""},
		{"order.metadata.missing", `{"$is_defined":[]}`, O},
		{"order.metadata.nil", `{"$is_defined":[]}`, O}, // null = not defined
		{"order.metadata.missing", `{"$is_not_defined":[]}`, ""},
		{"order.metadata.nil", `{"$is_not_defined":[true]}`, ""},
		{"order.metadata.tier", `{"$is_not_defined":[]}`, O},
		{"order.metadata.missing", `{"$is":["gold"]}`, O},
		{"order.metadata.missing", `{"$is_not":["gold"]}`, ""},
		{"order.metadata.missing", `{"$not_in":["gold"]}`, ""},
		{"order.metadata.missing", `{"$less_than":[1]}`, O},
		{"order.metadata.missing", `{"$contains":[""]}`, O},
		{"order.metadata.a.b", `{"$is":["dotted"]}`, ""}, // dotted key is one key
		{"order.metadata.tier", `{"$is_defined":[],"$is":["gold"],"$starts_with":["g"]}`, ""},
		{"order.metadata.tier", `{"$is_defined":[],"$is":["gold"],"$starts_with":["x"]}`, O},
		// redemption.metadata.<key>
		{"redemption.metadata.channel", `{"$is":["web-shop"]}`, ""},
		{"redemption.metadata.channel", `{"$is":["pos"]}`, R},
		{"redemption.metadata.channel", `{"$in":["pos","web-shop"]}`, ""},
		{"redemption.metadata.channel", `{"$not_in":["web-shop"]}`, R},
		{"redemption.metadata.channel", `{"$is_not":["pos"]}`, ""},
		{"redemption.metadata.channel", `{"$contains":["shop"]}`, ""},
		{"redemption.metadata.channel", `{"$contains":["pos"]}`, R},
		{"redemption.metadata.score", `{"$more_than_or_equal":[10]}`, ""},
		{"redemption.metadata.score", `{"$less_than":[10]}`, R},
		{"redemption.metadata.tier", `{"$is_defined":[]}`, R}, // order metadata is not redemption metadata
		{"redemption.metadata.tier", `{"$is_not_defined":[]}`, ""},
		// customer.metadata.<key>
		{"customer.metadata.plan", `{"$is":["pro"]}`, ""},
		{"customer.metadata.plan", `{"$in":["free","basic"]}`, C},
		{"customer.metadata.age", `{"$more_than_or_equal":[18]}`, ""},
		{"customer.metadata.age", `{"$less_than":[18]}`, C},
		{"customer.metadata.tier", `{"$is_defined":[]}`, C}, // order metadata is not customer metadata
	}
	for _, tt := range tests {
		d := mustParse(t, single(tt.name, tt.conds), "", "")
		v := d.Check(full)
		if vkey(v) != tt.key {
			t.Errorf("%s %s: got %q, want %q", tt.name, tt.conds, vkey(v), tt.key)
		}
		if v != nil && (v.RuleKey != "1" || v.Message != DefaultMessage(tt.key)) {
			t.Errorf("%s %s: violation %+v", tt.name, tt.conds, v)
		}
	}
}

// TestMissingData covers the missing_* keys.
func TestMissingData(t *testing.T) {
	tests := []struct {
		name, conds string
		ctx         Context
		key         string
	}{
		{"order.amount", `{"$less_than":[100]}`, Context{}, KeyMissingAmount},
		{"order.amount", `{"$is_not":[100]}`, Context{}, KeyMissingAmount},
		{"order.amount", `{"$less_than":[100]}`, Context{OrderAmount: amount(0)}, ""},
		{"order.items.count", `{"$more_than":[0]}`, Context{}, KeyMissingItems},
		{"order.items.count", `{"$less_than":[1]}`, Context{}, ""}, // 0 lines is a value
		{"order.items.quantity", `{"$is":[1]}`, Context{}, KeyMissingItems},
		{"order.items.quantity", `{"$is":[0]}`, Context{}, ""},
		{"order.items.any", `{"$is":["p"]}`, Context{}, KeyMissingItems},
		{"product.id", `{"$not_in":["p"]}`, Context{}, ""},
		{"order.items.count", `{"$more_than":[5]}`, Context{OrderItems: []Item{{ProductID: "p"}}}, KeyOrderRules},
		{"customer.segment", `{"$is":["s"]}`, Context{}, KeyMissingCustomer},
		{"customer.segment", `{"$is_not":["s"]}`, Context{CustomerSegments: []string{"x"}}, KeyMissingCustomer},
		{"customer.segment", `{"$is_not":["s"]}`, Context{CustomerID: "c"}, ""},
		{"customer.segment", `{"$is":["s"]}`, Context{CustomerID: "c"}, KeyCustomerRules},
		{"customer.id", `{"$not_in":["c"]}`, Context{}, KeyMissingCustomer},
		{"redemption.count.per_customer", `{"$less_than_or_equal":[1]}`, Context{}, KeyMissingCustomer},
		{"redemption.count.per_customer", `{"$less_than_or_equal":[1]}`, Context{CustomerID: "c"}, ""}, // first use
		{"order.metadata.x", `{"$is_not_defined":[]}`, Context{}, ""},
		{"redemption.metadata.x", `{"$is":[1]}`, Context{}, KeyRedemptionRules},
		{"customer.metadata.x", `{"$is_not_defined":[]}`, Context{}, KeyMissingCustomer},
	}
	for _, tt := range tests {
		d := mustParse(t, single(tt.name, tt.conds), "", "")
		v := d.Check(tt.ctx)
		if vkey(v) != tt.key {
			t.Errorf("%s %s %+v: got %q, want %q", tt.name, tt.conds, tt.ctx, vkey(v), tt.key)
		}
		if v != nil && v.Message != DefaultMessage(tt.key) {
			t.Errorf("message %q", v.Message)
		}
	}
}

// The reference's form of the metadata rules names the key in property
// (with underscore spellings too), and its examples' $greater_than_or_equal
// is $more_than_or_equal; a metadata rule without its property is refused.
func TestPropertyFormAndOperatorAliases(t *testing.T) {
	ctx := Context{CustomerID: "c", CustomerMetadata: map[string]any{"plan": "pro"},
		OrderMetadata: map[string]any{"store": "berlin"}, RedemptionMetadata: map[string]any{"n": 5.0}}
	for _, tt := range []struct {
		rule string
		key  string
	}{
		{`{"name":"customer.metadata","property":"plan","conditions":{"$is":["pro"]}}`, ""},
		{`{"name":"customer_metadata","property":"plan","conditions":{"$is":["free"]}}`, KeyCustomerRules},
		{`{"name":"order.metadata","property":"store","conditions":{"$is":["berlin"]}}`, ""},
		{`{"name":"order_metadata","property":"store","conditions":{"$is":["paris"]}}`, KeyOrderRules},
		{`{"name":"redemption.metadata","property":"n","conditions":{"$greater_than_or_equal":[5]}}`, ""},
		{`{"name":"redemption.metadata","property":"n","conditions":{"$greater_than":[5]}}`, KeyRedemptionRules},
	} {
		var rule map[string]any
		if err := json.Unmarshal([]byte(tt.rule), &rule); err != nil {
			t.Fatal(err)
		}
		d, err := Parse(map[string]any{"1": rule}, "", nil)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if got := vkey(d.Check(ctx)); got != tt.key {
			t.Errorf("%s: got %q, want %q", tt.rule, got, tt.key)
		}
	}
	_, err := Parse(map[string]any{"1": map[string]any{"name": "order.metadata", "conditions": map[string]any{"$is": []any{"x"}}}}, "", nil)
	if e, ok := err.(*Error); !ok || e.Property != "rules.1.property" || e.Reason != "Rule 'order.metadata' must have a 'property'" {
		t.Errorf("order.metadata without property: %v", err)
	}
}
