package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestPriceFormula: a FIXED/APPLY_TO_ITEMS tier whose applicable_to
// entries carry price_formula: the new unit price is the formula's value
// per line (ORDER_ITEM_PRICE the line's price), the entry's price when
// the formula has no value; the rule keeps it as sent; a formula that
// does not parse is a 400 naming it, nothing stored.
func TestPriceFormula(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createProduct(t, e, app, map[string]any{"source_id": "mug", "name": "Mug", "price": 1000})
	createProduct(t, e, app, map[string]any{"source_id": "poster", "name": "Poster", "price": 1500})
	_, tiers := promotionCampaign(t, e, app, "New prices", map[string]any{"name": "New prices",
		"action": map[string]any{"discount": map[string]any{"type": "FIXED", "effect": "APPLY_TO_ITEMS", "fixed_amount": 5000}}})
	tier := tiers[0]["id"].(string)
	mugFormula := "IF(ORDER_AMOUNT > 30;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)"
	cartRule(t, e, app, map[string]any{"applicable_to": map[string]any{"included": []any{
		map[string]any{"object": "product", "id": "mug", "price": 900, "price_formula": mugFormula},
		map[string]any{"object": "product", "id": "poster", "price": 1200, "price_formula": `ORDER_METADATA("poster_price")`}}}},
		map[string]any{"related_object_type": "promotion_tier", "related_object_id": tier})

	// Redeemed (TestPriceFormulaIsDynamic validates and qualifies).
	redeem := func(metadata map[string]any) []float64 {
		res := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(tier)},
			"order": map[string]any{"metadata": metadata, "items": []any{
				map[string]any{"product_id": "mug", "quantity": 2, "price": 1000},
				map[string]any{"product_id": "poster", "quantity": 1, "price": 1500}}}}, app), http.StatusOK)
		var out []float64
		for _, x := range res["order"].(map[string]any)["items"].([]any) {
			out = append(out, num(x.(map[string]any)["discount_amount"]))
		}
		return out
	}
	// Order 35.00 > 30: mugs at 800 (2 × 200 off); the poster's formula has
	// no value (no metadata): its price 1200 (300 off).
	if got := redeem(nil); len(got) != 2 || got[0] != 400 || got[1] != 300 {
		t.Fatalf("formula and fallback: %v", got)
	}
	// The poster's formula from the order's metadata: 10.00.
	if got := redeem(map[string]any{"poster_price": 10}); len(got) != 2 || got[0] != 400 || got[1] != 500 {
		t.Fatalf("poster_price 10: %v", got)
	}
	rules := must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["data"].([]any)
	entry := rules[0].(map[string]any)["applicable_to"].(map[string]any)["included"].([]any)[0].(map[string]any)
	if entry["price_formula"] != mugFormula || entry["price"] != float64(900) {
		t.Fatalf("stored entry: %s", mustJSON(entry))
	}

	before := num(must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["total"])
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "bad", "applicable_to": map[string]any{
		"included": []any{map[string]any{"object": "product", "id": "mug", "price_formula": "IF(ORDER_AMOUNT >"}}}}, app),
		http.StatusBadRequest, "invalid_payload", "applicable_to.included[0].price_formula")
	if after := num(must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["total"]); after != before {
		t.Fatalf("a bad formula was stored: %v → %v", before, after)
	}
}

// TestPriceFormulaIsDynamic: a FIXED discount whose amount comes only
// from the price_formula of an applicable_to entry (no formula of its
// own) shows result.discount.is_dynamic true in validations (and the
// legacy promotions validation's discount) and qualifications
// (docs/promotions.md "Discount formulas"); the same discount with a
// static price only shows false.
func TestPriceFormulaIsDynamic(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createProduct(t, e, app, map[string]any{"source_id": "mug", "name": "Mug", "price": 1000})
	fixedTier := func(campaign string, entry map[string]any) string {
		_, tiers := promotionCampaign(t, e, app, campaign, map[string]any{"name": campaign,
			"action": map[string]any{"discount": map[string]any{"type": "FIXED", "effect": "APPLY_TO_ITEMS", "fixed_amount": 5000}}})
		tier := tiers[0]["id"].(string)
		cartRule(t, e, app, map[string]any{"applicable_to": map[string]any{"included": []any{entry}}},
			map[string]any{"related_object_type": "promotion_tier", "related_object_id": tier})
		return tier
	}
	formula := fixedTier("Formula price", map[string]any{"object": "product", "id": "mug", "price": 900,
		"price_formula": "ORDER_ITEM_PRICE * 0.8"})
	static := fixedTier("Static price", map[string]any{"object": "product", "id": "mug", "price": 900})
	order := map[string]any{"items": []any{map[string]any{"product_id": "mug", "quantity": 1, "price": 1000}}}
	dynamic := func(what string, discount any) any {
		d, ok := discount.(map[string]any)
		if !ok {
			t.Fatalf("%s: no result.discount: %v", what, discount)
		}
		return d["is_dynamic"]
	}
	for _, c := range []struct {
		tier string
		want bool
		off  float64
	}{{formula, true, 200}, {static, false, 100}} {
		val := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(c.tier)},
			"order": order}, app), http.StatusOK)
		entry := val["redeemables"].([]any)[0].(map[string]any)
		if got := dynamic("validation", entry["result"].(map[string]any)["discount"]); got != c.want || num(val["order"].(map[string]any)["total_discount_amount"]) != c.off {
			t.Errorf("validation of %s: is_dynamic %v, want %v: %s", c.tier, got, c.want, mustJSON(val))
		}
	}
	// The legacy promotions validation shows each tier's discount the same way.
	legacy := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/validation", map[string]any{"order": order}, app), http.StatusOK)
	for _, x := range legacy["promotions"].([]any) {
		p := x.(map[string]any)
		if got := dynamic("legacy validation", p["discount"]); got != (p["id"] == formula) {
			t.Errorf("legacy validation of %s: is_dynamic %v", p["id"], got)
		}
	}
	q := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": order, "options": map[string]any{"limit": 10}}, app), http.StatusOK)
	seen := 0
	for _, x := range q["redeemables"].(map[string]any)["data"].([]any) {
		entry := x.(map[string]any)
		want := entry["id"] == formula
		if got := dynamic("qualification", entry["result"].(map[string]any)["discount"]); got != want {
			t.Errorf("qualification of %s: is_dynamic %v, want %v", entry["id"], got, want)
		}
		seen++
	}
	if seen != 2 {
		t.Errorf("qualification: %s", mustJSON(q))
	}
}
