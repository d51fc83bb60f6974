package validationrule

import (
	"strings"
	"testing"
)

// The redemption names once accepted without being enforced: each is
// evaluated, or refused when a rule is parsed.
func TestRedemptionNames(t *testing.T) {
	gift := Context{CustomerID: "cust_1", GiftAmount: 3000, PointsUsed: 200, LinkedCustomer: true, APIKey: "key_1",
		Count: func(string) (int64, bool) { return 2, true }}
	anonymous := Context{Count: func(string) (int64, bool) { return 0, true }}
	tests := []struct {
		name, rules string
		ctx         Context
		want        string // "" holds, else the violation key
	}{
		{"gift amount", single("redemption.gift.amount", `{"$less_than_or_equal":[3000]}`), gift, ""},
		{"gift amount over", single("redemption.gift.amount", `{"$less_than":[3000]}`), gift, KeyRedemptionRules},
		{"no gift is 0", single("redemption.gift.amount", `{"$more_than":[0]}`), anonymous, KeyRedemptionRules},
		{"points used", single("redemption.reward.pay_with_points.points_used", `{"$more_than_or_equal":[200]}`), gift, ""},
		{"points used over", single("redemption.reward.pay_with_points.points_used", `{"$less_than":[100]}`), gift, KeyRedemptionRules},
		{"linked customer", single("publication.redeemable_by_linked_customer", `{"$is":[true]}`), gift, ""},
		{"not linked", single("publication.redeemable_by_linked_customer", `{"$is":[true]}`), anonymous, KeyRedemptionRules},
		{"linked customer as a string", single("publication.redeemable_by_linked_customer", `{"$is":["true"]}`), gift, ""},
		{"not linked wanted", single("publication.redeemable_by_linked_customer", `{"$is_not":[true]}`), anonymous, ""},
		{"custom event metadata: no event", `{"1":{"name":"custom_event.metadata","property":"k","conditions":{"$is":["v"]}}}`, gift, KeyRedemptionRules},
		{"custom event metadata", `{"1":{"name":"custom_event.metadata","property":"k","conditions":{"$is":["v"]}}}`,
			Context{CustomEventMetadata: map[string]any{"k": "v"}}, ""},
		{"per-customer count needs a customer", single("redemption.count.per_customer.daily", `{"$less_than":[5]}`), anonymous, KeyMissingCustomer},
		{"per-customer count", single("redemption.count.per_customer.daily", `{"$less_than":[5]}`), gift, ""},
		{"per api key needs a key", single("redemption.count.per_api_key", `{"$less_than":[5]}`), anonymous, KeyRedemptionRules},
		{"per api key", single("redemption.count.per_api_key", `{"$less_than":[5]}`), gift, ""},
		{"api key: none is no key", single("redemption.api_key", `{"$is":["key_1"]}`), anonymous, KeyRedemptionRules},
		{"api key: none is not that key", single("redemption.api_key", `{"$is_not":["key_1"]}`), anonymous, ""},
	}
	for _, tt := range tests {
		d := mustParse(t, tt.rules, "", "")
		if got := vkey(d.Check(tt.ctx)); got != tt.want {
			t.Errorf("%s: Check = %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, n := range []string{"redemption.user.login", "redemption.count.per_user", "product.discount_applicable",
		"sku.discount_applicable", "product.metadata.discount_applicable", "product.metadata.aggregated_quantity",
		"product.metadata.aggregated_amount", "product.metadata.match_all"} {
		_, err := Parse(decode(t, single(n, `{"$is":[1]}`)), "", nil)
		if err == nil || !strings.Contains(err.Error(), "not supported") {
			t.Errorf("%s: Parse = %v, want refused", n, err)
		}
	}
}
