package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/redemption"
)

// realisticRedemption is the benchmark's realistic redemption
// (docs/bench/redemptions.sh): one code, a customer upserted by source_id
// with a profile, a 5-item order and redemption metadata.
func realisticRedemption(code, sourceID string) map[string]any {
	item := func(p string, q, price int) any {
		return map[string]any{"product_id": p, "quantity": q, "price": price}
	}
	return map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": code}},
		"customer":    map[string]any{"source_id": sourceID, "name": "A Shopper", "metadata": map[string]any{"tier": "gold"}},
		"order": map[string]any{"items": []any{item("p1", 2, 1500), item("p2", 1, 4000), item("p3", 3, 250),
			item("p4", 1, 9900), item("p5", 2, 120)}},
		"metadata": map[string]any{"channel": "web"},
	}
}

// TestConcurrentRealisticRedemptionsOfANewCustomer: 24 realistic
// redemptions at once, over two server processes, of a code that can be
// redeemed 5 times, of a campaign with one validation rule, all naming one
// new customer by source_id. Exactly 5 succeed, the code counts 5, and
// there is one customer row, which every stored redemption and order
// names — whichever path (one statement, or the transactional one after a
// lost insert or guard) each request took.
func TestConcurrentRealisticRedemptionsOfANewCustomer(t *testing.T) {
	e, app, servers := twoServers(t)
	v := discountCode(t, e, app, "Mix", "MIX-5", map[string]any{"type": "PERCENT", "percent_off": 10}, 5)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "order over 10.00",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}},
			"logic": "1"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+rule["id"].(string)+"/assignments",
		map[string]any{"related_object_type": "campaign", "related_object_id": v["campaign_id"]}, app), http.StatusOK)

	resps := burst(e, servers, app, 24, func(int) (string, any) {
		return "/v1/redemptions", realisticRedemption("MIX-5", "same-shopper")
	})
	wantOutcomes(t, "redemptions", resps, map[string]int{"200": 5, "400 quantity_exceeded": 19})
	if n := redeemedQuantity(t, e, app, "MIX-5"); n != 5 {
		t.Errorf("redeemed_quantity %d, want 5", n)
	}
	custs := e.DB.Client.Customer.Query().Where(customer.SourceID("same-shopper")).AllX(systemCtx())
	if len(custs) != 1 {
		t.Fatalf("%d customers with the source_id, want 1", len(custs))
	}
	cust := custs[0]
	if cust.Name == nil || *cust.Name != "A Shopper" || fmt.Sprint(cust.Metadata) != "map[tier:gold]" {
		t.Errorf("customer %v %v, want the requests' profile", cust.Name, cust.Metadata)
	}
	rs := e.DB.Client.Redemption.Query().Where(redemption.VoucherID(v["id"].(string))).AllX(systemCtx())
	succeeded := 0
	for _, r := range rs {
		if r.CustomerID == nil || *r.CustomerID != cust.ID {
			t.Errorf("redemption %s names customer %v, want %s", r.ID, r.CustomerID, cust.ID)
		}
		if r.Result != redemption.ResultSUCCESS {
			continue
		}
		succeeded++
		if o := e.DB.Client.Order.Query().Where(order.ID(*r.OrderID)).OnlyX(systemCtx()); o.CustomerID == nil || *o.CustomerID != cust.ID {
			t.Errorf("redemption %s: its order does not name the customer", r.ID)
		}
	}
	if succeeded != 5 {
		t.Errorf("%d successful redemptions stored, want 5", succeeded)
	}

	// Unlimited codes, one new customer per pair of requests from the two
	// processes: every request succeeds, one row per source_id.
	for i := range 8 {
		discountCode(t, e, app, fmt.Sprintf("Open %d", i), fmt.Sprintf("OPEN-%d", i), map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	}
	resps = burst(e, servers, app, 16, func(i int) (string, any) {
		return "/v1/redemptions", realisticRedemption(fmt.Sprintf("OPEN-%d", i/2), fmt.Sprintf("pair-%d", i/2))
	})
	wantOutcomes(t, "redemptions of unlimited codes", resps, map[string]int{"200": 16})
	for i := range 8 {
		if n := e.DB.Client.Customer.Query().Where(customer.SourceID(fmt.Sprintf("pair-%d", i))).CountX(systemCtx()); n != 1 {
			t.Errorf("pair-%d: %d customers, want 1", i, n)
		}
	}
}
