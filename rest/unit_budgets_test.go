package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// unitTier is a promotion tier taking 100 off each discounted unit of
// the lines its rules target.
func unitTier(name string) map[string]any {
	return map[string]any{"name": name, "action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": 100,
		"effect": "APPLY_TO_ITEMS_BY_QUANTITY"}}}
}

// budgetTier creates a PROMOTION campaign with a unitTier whose rule
// targets entry (an applicable_to entry with its budgets); it returns the tier id.
func budgetTier(t *testing.T, e *resttest.Env, h resttest.Headers, name string, entry map[string]any) string {
	t.Helper()
	_, tiers := promotionCampaign(t, e, h, name, unitTier(name))
	id := tiers[0]["id"].(string)
	cartRule(t, e, h, map[string]any{"applicable_to": map[string]any{"included": []any{entry}}},
		map[string]any{"related_object_type": "promotion_tier", "related_object_id": id})
	return id
}

// redeemTier redeems tier id on order (customer: a source_id, "" none)
// and returns the items discount and the parent redemption's id.
func redeemTier(t *testing.T, e *resttest.Env, h resttest.Headers, id string, order map[string]any, customer string) (float64, string) {
	t.Helper()
	body := map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": order}
	if customer != "" {
		body["customer"] = map[string]any{"source_id": customer}
	}
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", body, h), http.StatusOK)
	return num(red["order"].(map[string]any)["items_discount_amount"]), red["parent_redemption"].(map[string]any)["id"].(string)
}

// validateTier validates tier id on order and returns the items discount
// and the tier's applicable_to.
func validateTier(t *testing.T, e *resttest.Env, h resttest.Headers, id string, order map[string]any, customer string) (float64, map[string]any) {
	t.Helper()
	body := map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": order}
	if customer != "" {
		body["customer"] = map[string]any{"source_id": customer}
	}
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", body, h), http.StatusOK)
	r := res["redeemables"].([]any)[0].(map[string]any)
	at, _ := r["applicable_to"].(map[string]any)
	return num(res["order"].(map[string]any)["items_discount_amount"]), at
}

// mugs is an order of n mugs (1000 each) and, when posters > 0, posters (1500).
func mugs(n, posters int) map[string]any {
	items := []any{map[string]any{"product_id": "mug", "quantity": n, "price": 1000}}
	if posters > 0 {
		items = append(items, map[string]any{"product_id": "poster", "quantity": posters, "price": 1500})
	}
	return map[string]any{"items": items}
}

// TestUnitBudgets: an applicable_to entry's product_*_quantity_limit
// caps the units discounted over every redemption of its scope; a
// validation and a qualification show what is left; a rollback gives the
// units back; per-customer budgets count each customer's own units (none
// without a customer); in-collection budgets count per product; formulas
// compute the limit; bad budgets are refused and write nothing.
func TestUnitBudgets(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	pc := adventureCatalog(t, e, app)

	// A tier budget of 5 mugs: 2 + 2 + 1 + 0 units over four orders of 2.
	tier := budgetTier(t, e, app, "Five mugs", map[string]any{"object": "product", "id": "mug",
		"product_promotion_tier_quantity_limit": 5})
	var parents []string
	for i, want := range []float64{200, 200, 100, 0} {
		got, parent := redeemTier(t, e, app, tier, mugs(2, 0), "")
		if got != want {
			t.Fatalf("redemption %d: items discount %v, want %v", i+1, got, want)
		}
		parents = append(parents, parent)
	}
	got, at := validateTier(t, e, app, tier, mugs(2, 0), "")
	entry := at["data"].([]any)[0].(map[string]any)
	if got != 0 || entry["product_promotion_tier_quantity_limit"] != float64(5) {
		t.Fatalf("validation after the budget is used: discount %v, applicable_to %s", got, mustJSON(at))
	}
	// Rolling back the first redemption gives its 2 units back.
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+parents[0]+"/rollbacks", map[string]any{}, app), http.StatusOK)
	if got, _ := validateTier(t, e, app, tier, mugs(3, 0), ""); got != 200 {
		t.Fatalf("after the rollback: discount %v, want 200", got)
	}
	q := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": mugs(3, 0),
		"options": map[string]any{"limit": 50}}, app), http.StatusOK)
	listed := false
	for _, x := range q["redeemables"].(map[string]any)["data"].([]any) {
		if r := x.(map[string]any); r["id"] == tier {
			listed = true
			if num(r["order"].(map[string]any)["items_discount_amount"]) != 200 {
				t.Errorf("qualification shows %s", mustJSON(r["order"]))
			}
		}
	}
	if !listed {
		t.Errorf("qualification does not list the tier: %s", mustJSON(q))
	}

	// A per-customer campaign budget of 3 collection units: each customer its own; none without a customer.
	perCustomer := budgetTier(t, e, app, "Three each", map[string]any{"object": "products_collection", "id": pc,
		"product_customer_campaign_quantity_limit": 3})
	for _, c := range []struct {
		customer string
		want     float64
	}{{"ann", 200}, {"ann", 100}, {"bob", 200}, {"ann", 0}, {"bob", 100}, {"", 0}} {
		if got, _ := redeemTier(t, e, app, perCustomer, mugs(2, 0), c.customer); got != c.want {
			t.Fatalf("customer %q: items discount %v, want %v", c.customer, got, c.want)
		}
	}

	// Per product of a collection: 2 mugs and 2 posters, then nothing of either.
	perProduct := budgetTier(t, e, app, "Two of each", map[string]any{"object": "products_collection", "id": pc,
		"product_in_collection_promotion_tier_quantity_limit": 2})
	if got, _ := redeemTier(t, e, app, perProduct, mugs(3, 3), ""); got != 400 {
		t.Fatalf("in-collection budget: items discount %v, want 400", got)
	}
	if got, _ := redeemTier(t, e, app, perProduct, mugs(1, 1), ""); got != 0 {
		t.Fatalf("in-collection budget used: items discount %v, want 0", got)
	}

	// A formula: 4 units on orders over 50.00, else 1.
	formula := budgetTier(t, e, app, "Formula", map[string]any{"object": "product", "id": "mug",
		"product_promotion_tier_quantity_limit_formula": "IF(ORDER_AMOUNT > 50;4;1)"})
	if got, _ := validateTier(t, e, app, formula, mugs(6, 0), ""); got != 400 {
		t.Fatalf("formula budget: items discount %v, want 400", got)
	}

	// Refused: an in-collection budget on a product entry, a formula that does not parse, a negative limit.
	for _, bad := range []map[string]any{
		{"object": "product", "id": "mug", "product_in_collection_campaign_quantity_limit": 2},
		{"object": "product", "id": "mug", "product_campaign_quantity_limit_formula": "NOPE(1"},
		{"object": "product", "id": "mug", "product_campaign_quantity_limit": -1},
	} {
		r := e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "bad",
			"applicable_to": map[string]any{"included": []any{bad}}}, app)
		if body := must(t, r, http.StatusBadRequest); body["key"] != "invalid_payload" {
			t.Errorf("bad budget %v: %s", bad, r.Body)
		}
	}
}

// TestUnitBudgetUnderRace: a campaign budget of 7 units shared by 40
// codes, 40 concurrent redemptions of 2 units each (a different code
// each, so no voucher row lock orders them) over two server processes:
// exactly 7 units are discounted in all (PostgreSQL).
func TestUnitBudgetUnderRace(t *testing.T) {
	e, app, servers := twoServers(t)
	adventureCatalog(t, e, app)
	cmp := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Seven mugs", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100,
			"effect": "APPLY_TO_ITEMS_BY_QUANTITY"}}}, app), http.StatusOK)
	const n = 40
	for i := range n {
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Seven%20mugs/vouchers", map[string]any{"code": fmt.Sprintf("MUG%02d", i)}, app), http.StatusOK)
	}
	cartRule(t, e, app, map[string]any{"applicable_to": map[string]any{"included": []any{map[string]any{"object": "product", "id": "mug",
		"product_campaign_quantity_limit": 7}}}}, map[string]any{"related_object_type": "campaign", "related_object_id": cmp["id"]})
	resps := burst(e, servers, app, n, func(i int) (string, any) {
		return "/v1/redemptions", map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": fmt.Sprintf("MUG%02d", i)}},
			"order": mugs(2, 0)}
	})
	wantOutcomes(t, "budget redemptions", resps, map[string]int{"200": n})
	var total float64
	for _, r := range resps {
		total += num(r.JSON(t)["order"].(map[string]any)["items_discount_amount"])
	}
	if total != 700 {
		t.Fatalf("discounted %v in all, want 700 (7 units)", total)
	}
}
