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

	// Redeemed (a validation's applicable_to would show the entries too, but
	// the reference types price_formula as a number: its strict check
	// cannot pass there).
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
