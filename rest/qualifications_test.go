package rest_test

import (
	"net/http"
	"slices"
	"sort"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// qualificationShop is a project with promotion tiers behind order,
// customer and product rules, a code held by a VIP customer and a stack.
type qualificationShop struct {
	e    *resttest.Env
	app  resttest.Headers
	tier map[string]string // tier name → promo_ id
}

func newQualificationShop(t *testing.T) *qualificationShop {
	t.Helper()
	e := resttest.New(t)
	app := resttest.App(e.Project)
	// Rules name products that exist (a rule on an unknown product is a 404).
	for _, p := range []string{"pen", "mug"} {
		createProduct(t, e, app, map[string]any{"source_id": p, "name": p})
	}
	rule := func(name string, body map[string]any) string {
		body["name"] = name
		return must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", body, app), http.StatusOK)["id"].(string)
	}
	big := rule("big carts", map[string]any{"rules": map[string]any{"1": map[string]any{"name": "order.amount",
		"conditions": map[string]any{"$more_than": []any{5000}}}}})
	vip := rule("vips", map[string]any{"rules": map[string]any{"1": map[string]any{"name": "customer.metadata.vip",
		"conditions": map[string]any{"$is": []any{true}}}}})
	pens := rule("pens", map[string]any{"rules": map[string]any{},
		"applicable_to": map[string]any{"included": []any{map[string]any{"object": "product", "id": "pen"}}}})
	mug := rule("with a mug", map[string]any{"rules": map[string]any{"1": map[string]any{"name": "product.id",
		"conditions": map[string]any{"$is": []any{"mug"}}}}})
	itemsTier := func(name string, off int) map[string]any {
		return map[string]any{"name": name, "action": map[string]any{"discount": map[string]any{"type": "PERCENT",
			"percent_off": off, "effect": "APPLY_TO_ITEMS"}}}
	}
	with := func(tier map[string]any, rules ...string) map[string]any {
		tier["validation_rules"] = rules
		return tier
	}
	_, tiers := promotionCampaign(t, e, app, "Cart", with(amountTier("Big", 1000), big), with(percentTier("VIP", 10), vip),
		with(itemsTier("Pen", 10), pens), with(amountTier("Mug", 200), mug), with(itemsTier("VIP pen", 5), vip, pens))
	s := &qualificationShop{e: e, app: app, tier: map[string]string{}}
	for _, tr := range tiers {
		s.tier[tr["name"].(string)] = tr["id"].(string)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "metadata": map[string]any{"vip": true}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, app), http.StatusOK)
	discountCode(t, e, app, "Wallet", "ANN-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "ann"},
		"voucher": "ANN-1"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/promotions/Cart/stacks", map[string]any{"name": "big and pen",
		"tiers": map[string]any{"ids": []string{s.tier["Big"], s.tier["Pen"]}}}, app), http.StatusOK)
	return s
}

// qualify posts a qualification and returns the answer.
func (s *qualificationShop) qualify(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return must(t, s.e.DoJSON(http.MethodPost, "/v1/qualifications", body, s.app), http.StatusOK)
}

// names are the page's redeemables by tier name (a voucher by its code,
// a stack as "stack"), sorted.
func (s *qualificationShop) names(res map[string]any) []string {
	var out []string
	for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
		q := x.(map[string]any)
		name := q["id"].(string)
		for n, id := range s.tier {
			if id == q["id"] {
				name = n
			}
		}
		if q["object"] == "promotion_stack" {
			name = "stack"
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// smallCart has none of the rule's products and is below 5000.
func smallCart() map[string]any {
	return map[string]any{"items": []any{map[string]any{"product_id": "sock", "quantity": 1, "price": 1000}}}
}

func TestQualificationScenarios(t *testing.T) {
	s := newQualificationShop(t)
	ann, bob := map[string]any{"source_id": "ann"}, map[string]any{"source_id": "bob"}
	cases := []struct {
		scenario string
		customer map[string]any
		order    map[string]any
		want     []string
	}{
		{"ALL", ann, cart(), []string{"ANN-1", "Big", "Mug", "Pen", "VIP", "VIP pen"}},
		{"ALL", ann, smallCart(), []string{"ANN-1", "VIP"}},
		{"ALL", bob, cart(), []string{"Big", "Mug", "Pen"}},
		{"ALL", nil, smallCart(), nil},
		{"CUSTOMER_WALLET", ann, cart(), []string{"ANN-1"}},
		{"CUSTOMER_WALLET", bob, cart(), nil},
		{"AUDIENCE_ONLY", bob, smallCart(), []string{"Big", "Mug", "Pen"}},
		{"AUDIENCE_ONLY", ann, nil, []string{"ANN-1", "Big", "Mug", "Pen", "VIP", "VIP pen"}},
		{"PRODUCTS", bob, cart(), []string{"Mug", "Pen", "VIP pen"}},
		{"PRODUCTS", bob, smallCart(), nil},
		{"PRODUCTS_DISCOUNT", bob, cart(), []string{"Pen", "VIP pen"}},
		{"PRODUCTS_DISCOUNT", ann, smallCart(), nil},
		{"PRODUCTS_BY_CUSTOMER", ann, cart(), []string{"Mug", "Pen", "VIP pen"}},
		{"PRODUCTS_BY_CUSTOMER", bob, cart(), []string{"Mug", "Pen"}},
		{"PRODUCTS_DISCOUNT_BY_CUSTOMER", ann, cart(), []string{"Pen", "VIP pen"}},
		{"PRODUCTS_DISCOUNT_BY_CUSTOMER", bob, cart(), []string{"Pen"}},
		{"PROMOTION_STACKS", bob, cart(), []string{"stack"}},
		{"PROMOTION_STACKS", bob, smallCart(), nil},
	}
	for _, c := range cases {
		body := map[string]any{"scenario": c.scenario, "options": map[string]any{"limit": 50}}
		if c.customer != nil {
			body["customer"] = c.customer
		}
		if c.order != nil {
			body["order"] = c.order
		}
		res := s.qualify(t, body)
		if got := s.names(res); !slices.Equal(got, c.want) {
			t.Errorf("%s %v %v: got %v, want %v", c.scenario, c.customer, c.order != nil, got, c.want)
		}
	}

	// Each entry is computed alone on the cart; the stack carries its tiers.
	res := s.qualify(t, map[string]any{"customer": ann, "order": cart(), "options": map[string]any{"limit": 50,
		"expand": []string{"redeemable", "validation_rules"}}})
	list := res["redeemables"].(map[string]any)
	if list["object"] != "list" || list["data_ref"] != "data" || num(list["total"]) != 6 || list["has_more"] != false ||
		res["tracking_id"] == nil || res["stacking_rules"] == nil || num(res["order"].(map[string]any)["amount"]) != 6000 {
		t.Fatalf("answer: %s", mustJSON(res))
	}
	for _, x := range list["data"].([]any) {
		q := x.(map[string]any)
		o := q["order"].(map[string]any)
		switch q["id"] {
		case s.tier["Big"]:
			if num(o["total_discount_amount"]) != 1000 || q["name"] != "Big" || q["banner"] != "Big!" || q["campaign_name"] != "Cart" {
				t.Errorf("Big: %s", mustJSON(q))
			}
			as := q["validation_rules_assignments"].(map[string]any)["data"].([]any)
			if len(as) != 1 || as[0].(map[string]any)["validation_status"] != "VALID" {
				t.Errorf("Big's assignments: %s", mustJSON(as))
			}
		case s.tier["VIP"]:
			if num(o["total_discount_amount"]) != 600 {
				t.Errorf("VIP: %s", mustJSON(q))
			}
		case "ANN-1":
			if q["object"] != "voucher" || num(o["total_discount_amount"]) != 100 || q["result"].(map[string]any)["discount"] == nil {
				t.Errorf("ANN-1: %s", mustJSON(q))
			}
		}
	}
	// AUDIENCE_ONLY leaves the cart rules out: PARTIALLY_VALID.
	res = s.qualify(t, map[string]any{"scenario": "AUDIENCE_ONLY", "customer": bob, "options": map[string]any{"limit": 50,
		"expand": []string{"validation_rules"}, "filters": map[string]any{"resource_id": map[string]any{"conditions": map[string]any{"$is": s.tier["Big"]}}}}})
	q := res["redeemables"].(map[string]any)["data"].([]any)[0].(map[string]any)
	a := q["validation_rules_assignments"].(map[string]any)["data"].([]any)[0].(map[string]any)
	if a["validation_status"] != "PARTIALLY_VALID" || mustJSON(a["validation_omitted_rules"]) != `["1"]` {
		t.Errorf("audience-only assignment: %s", mustJSON(a))
	}
	// The stack's entry lists its tiers, applied one after the other.
	res = s.qualify(t, map[string]any{"scenario": "PROMOTION_STACKS", "order": cart()})
	st := res["redeemables"].(map[string]any)["data"].([]any)[0].(map[string]any)
	tiers := st["redeemables"].([]any)
	if len(tiers) != 2 || tiers[0].(map[string]any)["id"] != s.tier["Big"] || num(st["order"].(map[string]any)["total_discount_amount"]) != 1200 {
		t.Errorf("stack: %s", mustJSON(st))
	}
}
