package validationrule

import (
	"encoding/json"
	"testing"
)

const threeRules = `{
 "1":{"name":"order.amount","conditions":{"$more_than":[10000]}},
 "2":{"name":"customer.segment","conditions":{"$is":["seg_vip"]}},
 "3":{"name":"redemption.count.per_customer","conditions":{"$less_than_or_equal":[1]}},
 "logic":%q}`

func TestCheckViolation(t *testing.T) {
	big, small := amount(20000), amount(500)
	vip := Context{OrderAmount: big, CustomerID: "c", CustomerSegments: []string{"seg_vip"}}
	tests := []struct {
		name, logic string
		ctx         Context
		key, rule   string
	}{
		{"all pass", "(1) and (2) and (3)", vip, "", ""},
		{"first failing by key", "(1) and (2)", Context{OrderAmount: small, CustomerID: "c"}, KeyOrderRules, "1"},
		{"only 2 fails", "(1) and (2)", Context{OrderAmount: big, CustomerID: "c"}, KeyCustomerRules, "2"},
		{"key order, not expression order", "(2) and (1)", Context{OrderAmount: small, CustomerID: "c"}, KeyOrderRules, "1"},
		{"missing customer", "1 and 2", Context{OrderAmount: big}, KeyMissingCustomer, "2"},
		{"missing amount", "1 and 2", Context{CustomerID: "c", CustomerSegments: []string{"seg_vip"}}, KeyMissingAmount, "1"},
		{"or passes", "1 or 2", Context{OrderAmount: small, CustomerID: "c", CustomerSegments: []string{"seg_vip"}}, "", ""},
		{"or fails: first", "2 or 1", Context{OrderAmount: small, CustomerID: "c"}, KeyOrderRules, "1"},
		{"passing rule not blamed", "3 and (1 or 2)", Context{OrderAmount: small, CustomerID: "c", CustomerRedemptions: 5}, KeyOrderRules, "1"},
		{"passing rules not blamed", "(1 or 2) and 3", Context{OrderAmount: big, CustomerID: "c", CustomerRedemptions: 1}, KeyRedemptionRules, "3"},
		{"not blames a passing rule with its kind's key", "not 1", vip, KeyOrderRules, "1"},
		{"not of missing data passes", "not 2", Context{}, "", ""},
		{"not of passing customer rule", "not 2 and 1", vip, KeyCustomerRules, "2"},
		{"empty logic = and", "", Context{OrderAmount: big, CustomerID: "c", CustomerSegments: []string{"seg_vip"}, CustomerRedemptions: 1}, KeyRedemptionRules, "3"},
		{"unreferenced rule ignored", "1", Context{OrderAmount: big}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, sprintf(threeRules, tt.logic), "", "")
			v := d.Check(tt.ctx)
			if vkey(v) != tt.key {
				t.Fatalf("got %+v, want key %q", v, tt.key)
			}
			if v != nil && (v.RuleKey != tt.rule || v.Message != DefaultMessage(tt.key)) {
				t.Errorf("got %+v, want rule %s and default message", v, tt.rule)
			}
		})
	}
}

func TestCheckMessages(t *testing.T) {
	rules := `{"1":{"name":"order.amount","conditions":{"$more_than":[100]}},
	 "2":{"name":"customer.id","conditions":{"$is":["c"]},"error":{"message":"only c"}}}`
	tests := []struct {
		name, custom string
		ctx          Context
		key, msg     string
	}{
		{"default order", "", Context{OrderAmount: amount(1), CustomerID: "c"}, KeyOrderRules, "order does not match validation rules"},
		{"custom wins", "Min 100", Context{OrderAmount: amount(1), CustomerID: "c"}, KeyOrderRules, "Min 100"},
		{"custom wins over missing_*", "Min 100", Context{CustomerID: "c"}, KeyMissingAmount, "Min 100"},
		{"default missing", "", Context{CustomerID: "c"}, KeyMissingAmount, "missing order amount"},
		{"rule message wins", "Min 100", Context{OrderAmount: amount(200), CustomerID: "d"}, KeyCustomerRules, "only c"},
		{"rule message for missing customer", "", Context{OrderAmount: amount(200)}, KeyMissingCustomer, "only c"},
	}
	for _, tt := range tests {
		d := mustParse(t, rules, tt.custom, "")
		v := d.Check(tt.ctx)
		if v == nil || v.Key != tt.key || v.Message != tt.msg {
			t.Errorf("%s: got %+v, want %s %q", tt.name, v, tt.key, tt.msg)
		}
	}
}

func TestDefaultMessages(t *testing.T) {
	want := map[string]string{
		KeyOrderRules:      "order does not match validation rules",
		KeyCustomerRules:   "customer does not match segment rules",
		KeyRedemptionRules: "redemption does not match validation rules",
		KeyMissingCustomer: "missing customer",
		KeyMissingAmount:   "missing order amount",
		KeyMissingItems:    "missing order items",
		"other":            "",
	}
	for k, m := range want {
		if got := DefaultMessage(k); got != m {
			t.Errorf("DefaultMessage(%q) = %q, want %q", k, got, m)
		}
	}
}

func TestCheckHandBuilt(t *testing.T) {
	ctx := Context{OrderAmount: amount(500), OrderMetadata: map[string]any{"n": json.Number("5"), "s": "x"}}
	tests := []struct {
		name string
		d    Definition
		key  string
	}{
		{"raw float operands", Definition{Rules: map[string]Condition{"1": {Name: "order.amount",
			Conditions: map[string][]any{"$more_than": {100.0}, "$is_not": {json.Number("1")}}}}}, ""},
		{"raw product object", Definition{Rules: map[string]Condition{"1": {Name: "product.id",
			Conditions: map[string][]any{"$is": {map[string]any{"object": "product", "id": "p"}}}}}}, KeyMissingItems},
		{"json.Number metadata", Definition{Rules: map[string]Condition{"1": {Name: "order.metadata.n",
			Conditions: map[string][]any{"$is": {5}, "$more_than": {int64(4)}}}}}, ""},
		{"bad logic fails closed", Definition{Rules: map[string]Condition{"1": {Name: "order.amount",
			Conditions: map[string][]any{"$more_than": {1}}}}, Logic: "1 and 9"}, KeyRedemptionRules},
		{"unknown name fails closed", Definition{Rules: map[string]Condition{"1": {Name: "x",
			Conditions: map[string][]any{"$is": {1}}}}}, KeyRedemptionRules},
		{"no operators fails closed", Definition{Rules: map[string]Condition{"1": {Name: "order.amount"}}}, KeyOrderRules},
		{"unknown operator is false", Definition{Rules: map[string]Condition{"1": {Name: "order.metadata.s",
			Conditions: map[string][]any{"$regex": {"x"}}}}}, KeyOrderRules},
		{"wrong operand count is false", Definition{Rules: map[string]Condition{"1": {Name: "order.amount",
			Conditions: map[string][]any{"$less_than": {1000, 2000}}}}}, KeyOrderRules},
	}
	for _, tt := range tests {
		if got := vkey(tt.d.Check(ctx)); got != tt.key {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.key)
		}
	}
	withItems := Context{OrderItems: []Item{{ProductID: "p", SKUID: "s"}}}
	for obj, want := range map[string]string{"product": "", "sku": KeyOrderRules, "": ""} {
		d := Definition{Rules: map[string]Condition{"1": {Name: "order.items.any",
			Conditions: map[string][]any{"$in": {7, map[string]any{"object": obj, "id": "p"}}}}}}
		if got := vkey(d.Check(withItems)); got != want {
			t.Errorf("raw object %q: got %q, want %q", obj, got, want)
		}
	}
	v := Definition{Logic: "(", ErrorMessage: "nope"}.Check(ctx)
	if v == nil || v.Message != "nope" || v.RuleKey != "" {
		t.Errorf("invalid definition: %+v", v)
	}
}
