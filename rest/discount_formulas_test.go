package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestDiscountFormulas: a discount's formula decides its value on each
// request (the reference's examples), its static value is the fallback
// when the formula has no value, and a formula the language does not
// have is a 400 that writes nothing.
func TestDiscountFormulas(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	voucher := func(code string, d map[string]any) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": code, "type": "DISCOUNT_VOUCHER", "discount": d}, app)
	}
	must(t, voucher("TIERED", map[string]any{"type": "PERCENT", "percent_off": 5,
		"percent_off_formula": "IF(ORDER_AMOUNT > 300;15;5)"}), http.StatusOK)
	must(t, voucher("FANS", map[string]any{"type": "AMOUNT", "amount_off": 100,
		"amount_off_formula": `IF(CUSTOMER_METADATA("favorite_brands") contains "Nike";20;CUSTOMER_METADATA("age"))`}), http.StatusOK)
	_, tiers := promotionCampaign(t, e, app, "Per unit", map[string]any{"name": "A dollar a unit", "action": map[string]any{
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 0, "amount_off_formula": "ORDER_ITEMS_QUANTITY * 1"}}})
	discountOf := func(redeemable map[string]any, order, customer map[string]any) any {
		body := map[string]any{"redeemables": []any{redeemable}, "order": order}
		if customer != nil {
			body["customer"] = customer
		}
		res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", body, app), http.StatusOK)
		if res["valid"] != true {
			t.Fatalf("%v not valid: %s", redeemable, mustJSON(res))
		}
		// A formula-computed discount is dynamic.
		if d := res["redeemables"].([]any)[0].(map[string]any)["result"].(map[string]any)["discount"].(map[string]any); d["is_dynamic"] != true {
			t.Errorf("%v: result.discount.is_dynamic = %v, want true", redeemable, d["is_dynamic"])
		}
		return res["order"].(map[string]any)["total_discount_amount"]
	}
	code := func(c string) map[string]any { return map[string]any{"object": "voucher", "id": c} }
	for _, c := range []struct {
		name     string
		r        map[string]any
		order    map[string]any
		customer map[string]any
		want     float64
	}{
		{"order above 300.00: 15%", code("TIERED"), map[string]any{"amount": 40000}, nil, 6000},
		{"order of 300.00: 5%", code("TIERED"), map[string]any{"amount": 30000}, nil, 1500},
		{"a Nike fan: 20.00", code("FANS"), map[string]any{"amount": 10000},
			map[string]any{"source_id": "fan", "metadata": map[string]any{"favorite_brands": "Nike, Puma", "age": 40}}, 2000},
		{"another customer: age 31 → 31.00", code("FANS"), map[string]any{"amount": 10000},
			map[string]any{"source_id": "other", "metadata": map[string]any{"favorite_brands": "Puma", "age": 31}}, 3100},
		{"no metadata: the static 1.00", code("FANS"), map[string]any{"amount": 10000}, nil, 100},
		{"three units: 3.00", map[string]any{"object": "promotion_tier", "id": tiers[0]["id"]}, map[string]any{"items": []any{
			map[string]any{"product_id": "a", "quantity": 2, "price": 1000}, map[string]any{"product_id": "b", "quantity": 1, "price": 500}}},
			nil, 300},
	} {
		if got := discountOf(c.r, c.order, c.customer); got != c.want {
			t.Errorf("%s: discount %v, want %v", c.name, got, c.want)
		}
	}

	// A redemption (the one-statement path on PostgreSQL) applies the same value.
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{code("TIERED")},
		"order": map[string]any{"amount": 40000}}, app), http.StatusOK)
	if got := red["order"].(map[string]any)["total_discount_amount"]; got != float64(6000) {
		t.Errorf("redemption discount %v, want 6000: %s", got, mustJSON(red))
	}

	// Bad formulas: 400 at create and update, nothing written.
	wantErrorKey(t, voucher("BAD", map[string]any{"type": "PERCENT", "percent_off": 5, "percent_off_formula": "EXEC(1)"}),
		http.StatusBadRequest, "invalid_payload")
	must(t, e.Do(http.MethodGet, "/v1/vouchers/BAD", nil, app), http.StatusNotFound)
	tierPath := "/v1/promotions/tiers/" + tiers[0]["id"].(string)
	for _, f := range []string{"ORDER_AMOUNT +", "UNKNOWN * 2", "IF(1;2)", `CUSTOMER_METADATA(age)`} {
		wantErrorKey(t, e.DoJSON(http.MethodPut, tierPath, map[string]any{"name": "Changed", "action": map[string]any{
			"discount": map[string]any{"type": "AMOUNT", "amount_off": 1, "amount_off_formula": f}}}, app),
			http.StatusBadRequest, "invalid_payload")
	}
	if got := must(t, e.Do(http.MethodGet, tierPath, nil, app), http.StatusOK); got["name"] != "A dollar a unit" {
		t.Errorf("a refused update wrote: %v", got)
	}
}
