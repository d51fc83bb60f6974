package validationrule

import "testing"

// The cart rules of reference §8.3 against one cart.
func TestCartRules(t *testing.T) {
	mug := Item{ProductID: "prod_mug", Quantity: 2, Price: 1000, Amount: 2000, Collections: []string{"pc_adv"},
		Metadata: map[string]any{"color": "red"}, ProductMetadata: map[string]any{"brand": "Adventure"}}
	shirt := Item{ProductID: "prod_shirt", SKUID: "sku_shirt_l", SKUAliases: []string{"shirt-l"}, Quantity: 3, Price: 2000,
		Amount: 6000, Collections: []string{"pc_adv"}, Metadata: map[string]any{"color": "blue"}}
	bottle := Item{ProductID: "prod_bottle", ProductAliases: []string{"bottle-src"}, Quantity: 1, Price: 2500, Amount: 2500}
	cart := []Item{mug, shirt, bottle}
	counts := map[string]int64{"redemption.count": 4, "campaign.orders.amount": 90000}
	ctx := Context{OrderAmount: amount(10500), OrderInitialAmount: amount(12000), OrderTotalAmount: amount(9000),
		OrderItems: cart, APIKey: "key_1",
		Count: func(name string) (int64, bool) { n, ok := counts[name]; return n, ok }}
	tests := []struct {
		name, rules string
		ctx         *Context
		want        string // "" holds, else the violation key
	}{
		{"initial amount", single("order.initial_amount", `{"$is":[12000]}`), nil, ""},
		{"total amount", single("order.total_amount", `{"$less_than":[9001]}`), nil, ""},
		{"total amount fails", single("order.total_amount", `{"$more_than":[9000]}`), nil, KeyOrderRules},
		{"price_any", single("order.items.price_any", `{"$more_than_or_equal":[2500]}`), nil, ""},
		{"price_each fails", single("order.items.price_each", `{"$more_than":[1000]}`), nil, KeyOrderRules},
		{"price_each", single("order.items.price_each", `{"$more_than_or_equal":[1000]}`), nil, ""},
		{"metadata_any", `{"1":{"name":"order.items.metadata_any","property":"color","conditions":{"$is":["blue"]}}}`, nil, ""},
		{"metadata_each fails", `{"1":{"name":"order.items.metadata_each","property":"color","conditions":{"$is":["blue"]}}}`, nil, KeyOrderRules},
		{"product metadata", `{"1":{"name":"product.metadata","property":"brand","conditions":{"$is":["Adventure"]}}}`, nil, ""},
		{"any product", single("order.items.any", `{"$is":[{"id":"prod_mug","object":"product"}]}`), nil, ""},
		{"any by alias", single("order.items.any", `{"$is":[{"id":"bottle-src","object":"product"}]}`), nil, ""},
		{"any sku alias", single("order.items.any", `{"$is":[{"id":"shirt-l","object":"sku"}]}`), nil, ""},
		{"any collection", single("order.items.any", `{"$is":[{"id":"pc_adv","object":"products_collection"}]}`), nil, ""},
		{"every collection fails", single("order.items.every", `{"$is":[{"id":"pc_adv","object":"products_collection"}]}`), nil, KeyOrderRules},
		{"every of two", single("order.items.every", `{"$is":[{"id":"pc_adv","object":"products_collection"},{"id":"prod_bottle","object":"product"}]}`), nil, ""},
		{"none", single("order.items.none", `{"$is":[{"id":"prod_pen","object":"product"}]}`), nil, ""},
		{"none fails", single("order.items.none", `{"$is":[{"id":"prod_mug","object":"product"}]}`), nil, KeyOrderRules},
		{"cheapest", single("order.items.cheapest", `{"$is":[{"id":"prod_mug","object":"product"}]}`), nil, ""},
		{"most expensive", single("order.items.most_expensive", `{"$is":[{"id":"prod_bottle","object":"product"}]}`), nil, ""},
		{"most expensive fails", single("order.items.most_expensive", `{"$is":[{"id":"prod_mug","object":"product"}]}`), nil, KeyOrderRules},
		{"nested quantity", `{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_shirt","object":"product"}]},
			"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[3]}}}}}`, nil, ""},
		{"nested quantity fails", `{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_mug","object":"product"}]},
			"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[3]}}}}}`, nil, KeyOrderRules},
		{"nested aggregated", `{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"pc_adv","object":"products_collection"}]},
			"rules":{"1":{"name":"order.items.aggregated_quantity","conditions":{"$is":[5]}},
			         "2":{"name":"order.items.aggregated_amount","conditions":{"$is":[8000]}},"logic":"1 and 2"}}}`, nil, ""},
		{"nested price or metadata", `{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_mug","object":"product"}]},
			"rules":{"1":{"name":"order.items.price","conditions":{"$more_than":[5000]}},
			         "2":{"name":"order.items.metadata","property":"color","conditions":{"$is":["red"]}},"logic":"1 or 2"}}}`, nil, ""},
		{"product.id", single("product.id", `{"$is":[{"id":"prod_mug"}]}`), nil, ""},
		{"product.quantity", single("product.quantity", `{"$more_than":[2]}`), nil, ""},
		{"sku.id", single("sku.id", `{"$is":["sku_shirt_l"]}`), nil, ""},
		{"sku.id not a product", single("sku.id", `{"$is":["prod_mug"]}`), nil, KeyOrderRules},
		{"sku.price", single("sku.price", `{"$is":[2000]}`), nil, ""},
		{"redemption.count counts this one", single("redemption.count", `{"$less_than_or_equal":[4]}`), nil, KeyRedemptionRules},
		{"redemption.count", single("redemption.count", `{"$less_than_or_equal":[5]}`), nil, ""},
		{"campaign amount", single("campaign.orders.amount", `{"$less_than":[100000]}`), nil, ""},
		{"unknown count not enforced", single("campaign.redemptions.count.daily", `{"$less_than":[1]}`), nil, ""},
		{"api key", single("redemption.api_key", `{"$is":["key_2"]}`), nil, KeyRedemptionRules},
		{"empty cart", single("order.items.any", `{"$is":["prod_mug"]}`), &Context{}, KeyMissingItems},
	}
	for _, tt := range tests {
		c := ctx
		if tt.ctx != nil {
			c = *tt.ctx
		}
		d := mustParse(t, tt.rules, "", "")
		if got := vkey(d.Check(c)); got != tt.want {
			t.Errorf("%s: Check = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Every name of the reference's fixed list is accepted.
func TestReferenceNamesAccepted(t *testing.T) {
	names := []string{"order.amount", "order.total_amount", "order.initial_amount", "order.items.count",
		"order.items.price_any", "order.items.price_each", "campaign.orders.amount_discounted", "campaign.orders.amount",
		"campaign.redemptions.count", "campaign.redemptions.count.daily", "campaign.redemptions.count.weekly",
		"campaign.redemptions.count.monthly", "campaign.redemptions.customers_count", "campaign.redemptions.customers_count.daily",
		"campaign.redemptions.customers_count.weekly", "campaign.redemptions.customers_count.monthly", "redemption.gift.amount",
		"redemption.count.daily", "redemption.count.weekly", "redemption.count.monthly", "redemption.count.per_customer",
		"redemption.count.per_customer.daily", "redemption.count.per_customer.weekly", "redemption.count.per_customer.monthly",
		"redemption.count.per_api_key", "redemption.reward.pay_with_points.points_used",
		"product.price", "product.quantity", "sku.price", "sku.quantity", "order.items.quantity"}
	for _, n := range names {
		if _, err := Parse(decode(t, single(n, `{"$more_than":[1]}`)), "", nil); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if _, err := Parse(decode(t, single("publication.redeemable_by_linked_customer", `{"$is":[true]}`)), "", nil); err != nil {
		t.Errorf("linked customer: %v", err)
	}
	for _, n := range []string{"redemption.api_key"} {
		if _, err := Parse(decode(t, single(n, `{"$is":["x"]}`)), "", nil); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, n := range []string{"order.items.every", "order.items.any", "order.items.none", "order.items.cheapest",
		"order.items.most_expensive", "product.id", "sku.id"} {
		if _, err := Parse(decode(t, single(n, `{"$is":[{"id":"p","object":"product"}]}`)), "", nil); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, n := range []string{"customer.metadata", "order.metadata", "order.items.metadata_any", "order.items.metadata_each",
		"product.metadata", "redemption.metadata", "custom_event.metadata", "custom_event_metadata", "order_items_metadata"} {
		rules := `{"1":{"name":"` + n + `","property":"k","conditions":{"$is":["v"]}}}`
		if _, err := Parse(decode(t, rules), "", nil); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		if _, err := Parse(decode(t, single(n, `{"$is":["v"]}`)), "", nil); err == nil {
			t.Errorf("%s without property: accepted", n)
		}
	}
}
