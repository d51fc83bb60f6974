package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// adventureCatalog creates the reference's §7.4 catalogue: Mug 1000,
// Poster 1500, T-shirt 2000 (brand Adventure, an AUTO_UPDATE collection)
// and Bottle 2500; it returns the collection's id.
func adventureCatalog(t *testing.T, e *resttest.Env, h resttest.Headers) string {
	t.Helper()
	for _, p := range []struct {
		id    string
		price int
		brand string
	}{{"mug", 1000, "Adventure"}, {"poster", 1500, "Adventure"}, {"tshirt", 2000, "Adventure"}, {"bottle", 2500, "Other"}} {
		createProduct(t, e, h, map[string]any{"source_id": p.id, "name": p.id, "price": p.price, "metadata": map[string]any{"brand": p.brand}})
	}
	pc := must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "AUTO_UPDATE", "name": "Adventure",
		"filter": map[string]any{"junction": "AND", "metadata.brand": map[string]any{"conditions": map[string]any{"$is": []any{"Adventure"}}}}}, h), http.StatusOK)
	return pc["id"].(string)
}

// adventureOrder is the §7.4 sample cart (amount 17500).
func adventureOrder() map[string]any {
	line := func(id string, qty, price int) map[string]any {
		return map[string]any{"product_id": id, "quantity": qty, "price": price}
	}
	return map[string]any{"items": []any{line("mug", 2, 1000), line("poster", 3, 1500), line("tshirt", 3, 2000), line("bottle", 2, 2500)}}
}

// lineDiscounts reads the order's items[].discount_amount.
func lineDiscounts(order map[string]any) []float64 {
	var out []float64
	for _, it := range order["items"].([]any) {
		out = append(out, num(it.(map[string]any)["discount_amount"]))
	}
	return out
}

// sameAmounts asserts that the stored order shows the amounts the redemption returned.
func sameAmounts(t *testing.T, e *resttest.Env, h resttest.Headers, got map[string]any) {
	t.Helper()
	stored := must(t, e.Do(http.MethodGet, "/v1/orders/"+got["id"].(string), nil, h), http.StatusOK)
	for _, k := range []string{"amount", "discount_amount", "items_discount_amount", "total_discount_amount", "total_amount",
		"applied_discount_amount", "items_applied_discount_amount", "total_applied_discount_amount"} {
		if num(stored[k]) != num(got[k]) {
			t.Errorf("stored %s = %v, the redemption said %v", k, stored[k], got[k])
		}
	}
	if a, b := lineDiscounts(stored), lineDiscounts(got); mustJSON(a) != mustJSON(b) {
		t.Errorf("stored lines %v, the redemption said %v", a, b)
	}
}

// TestItemEffectsThroughVoucherAndTier: a voucher and a promotion tier
// with product/collection rules discount the eligible lines as the
// reference's worked examples; applicable_to/inapplicable_to list the
// entries and the lines they covered; the stored order equals the response.
func TestItemEffectsThroughVoucherAndTier(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	pc := adventureCatalog(t, e, app)

	// A voucher, 1000 off each unit of the Adventure collection except posters.
	discountCode(t, e, app, "Units", "UNITS", map[string]any{"type": "AMOUNT", "amount_off": 1000, "effect": "APPLY_TO_ITEMS_BY_QUANTITY"}, nil)
	cartRule(t, e, app, map[string]any{"applicable_to": map[string]any{
		"included": []any{map[string]any{"object": "products_collection", "id": pc}},
		"excluded": []any{map[string]any{"object": "product", "id": "poster"}}}}, map[string]any{"voucher": "UNITS"})
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "UNITS"}}, "order": adventureOrder()}, app), http.StatusOK)
	order := res["order"].(map[string]any)
	if got := lineDiscounts(order); mustJSON(got) != "[2000,0,3000,0]" || num(order["items_discount_amount"]) != 5000 ||
		num(order["total_amount"]) != 12500 {
		t.Fatalf("BY_QUANTITY without posters: %s", mustJSON(order))
	}
	r0 := res["redeemables"].([]any)[0].(map[string]any)
	at := r0["applicable_to"].(map[string]any)
	data := at["data"].([]any)
	first := data[0].(map[string]any)
	if num(at["total"]) != 3 || first["object"] != "products_collection" || first["effect"] != "APPLY_TO_EVERY" ||
		mustJSON(first["order_item_indices"]) != "[0,2]" || !strings.Contains(mustJSON(first["order_item_units"]), `{"index":2,"units":[1,2,3]}`) ||
		data[1].(map[string]any)["object"] != "product" || data[1].(map[string]any)["source_id"] != "mug" ||
		!strings.HasPrefix(data[1].(map[string]any)["id"].(string), "prod_") {
		t.Fatalf("applicable_to: %s", mustJSON(at))
	}
	if in := r0["inapplicable_to"].(map[string]any); num(in["total"]) != 1 || in["data"].([]any)[0].(map[string]any)["id"] != "poster" {
		t.Fatalf("inapplicable_to: %s", mustJSON(in))
	}
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "UNITS"}}, "order": adventureOrder()}, app), http.StatusOK)
	sameAmounts(t, e, app, red["order"].(map[string]any))

	// A tier: FIXED without fixed_amount, the new price in the entry; the
	// most expensive first, skipping one line then every second one.
	_, tiers := promotionCampaign(t, e, app, "New prices", map[string]any{"name": "At 800",
		"action": map[string]any{"discount": map[string]any{"type": "FIXED", "effect": "APPLY_TO_ITEMS"}}})
	tier := tiers[0]["id"].(string)
	cartRule(t, e, app, map[string]any{"applicable_to": map[string]any{"included": []any{map[string]any{
		"object": "products_collection", "id": pc, "price": 800, "effect": "APPLY_FROM_MOST_EXPENSIVE", "skip_initially": 1, "repeat": 2}}}},
		map[string]any{"related_object_type": "promotion_tier", "related_object_id": tier})
	red = must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(tier)},
		"order": adventureOrder()}, app), http.StatusOK)
	order = red["order"].(map[string]any)
	// Sorted: T-shirt 2000, Poster 1500, Mug 1000; skip the T-shirt, take
	// the Poster, skip the Mug: Poster 3 × (1500 − 800) = 2100.
	if got := lineDiscounts(order); mustJSON(got) != "[0,2100,0,0]" || num(order["total_amount"]) != 15400 {
		t.Fatalf("FIXED from most expensive: %s", mustJSON(order))
	}
	sameAmounts(t, e, app, order)

	// PERCENT with a per-line amount_limit, on a product named by source_id.
	discountCode(t, e, app, "Capped", "CAPPED", map[string]any{"type": "PERCENT", "percent_off": 10, "amount_limit": 400, "effect": "APPLY_TO_ITEMS"}, nil)
	cartRule(t, e, app, map[string]any{"applicable_to": map[string]any{"included": []any{
		map[string]any{"object": "products_collection", "id": pc}}}}, map[string]any{"voucher": "CAPPED"})
	res = must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "CAPPED"}}, "order": adventureOrder()}, app), http.StatusOK)
	if got := lineDiscounts(res["order"].(map[string]any)); mustJSON(got) != "[200,400,400,0]" {
		t.Fatalf("PERCENT amount_limit per line: %s", mustJSON(res["order"]))
	}
}

// TestCartBadInputWritesNothing: a negative price, a quantity of 0 and a
// cart of 10,000 lines are refused with the error object; no order,
// redemption or rule is written.
func TestCartBadInputWritesNothing(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Codes", "TEN", map[string]any{"type": "AMOUNT", "amount_off": 1000, "effect": "APPLY_TO_ITEMS"}, nil)
	redeem := func(items []any) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "TEN"}},
			"order": map[string]any{"items": items}}, app)
	}
	wantError(t, redeem([]any{map[string]any{"product_id": "mug", "quantity": 1, "price": -5}}), http.StatusBadRequest, "invalid_payload", "price")
	wantError(t, redeem([]any{map[string]any{"product_id": "mug", "quantity": 0, "price": 500}}), http.StatusBadRequest, "invalid_payload", "quantity cannot be lower than 1")
	big := make([]any, 10000)
	for i := range big {
		big[i] = map[string]any{"product_id": "mug", "quantity": 1, "price": 1}
	}
	wantError(t, redeem(big), http.StatusBadRequest, "invalid_payload", "500")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x", "applicable_to": map[string]any{
		"included": []any{map[string]any{"object": "product", "id": "mug", "price": -1}}}}, app), http.StatusBadRequest, "invalid_payload", "price")
	for path, key := range map[string]string{"/v1/orders": "orders", "/v1/redemptions": "redemptions", "/v1/validation-rules": "data"} {
		if l := must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK); num(l["total"]) != 0 && len(l[key].([]any)) != 0 {
			t.Errorf("%s after refused requests: %s", path, mustJSON(l))
		}
	}
}

// TestUnitPriceFromCatalogue: free units of a product the cart does not
// hold take the catalogue price (the SKU's, else the product's); a free
// shipping line has none.
func TestUnitPriceFromCatalogue(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	adventureCatalog(t, e, app)
	discountCode(t, e, app, "Gifts", "GIFT", map[string]any{"type": "UNIT", "effect": "ADD_MANY_ITEMS", "units": []any{
		map[string]any{"unit_off": 2, "unit_type": "poster", "effect": "ADD_NEW_ITEMS"},
		map[string]any{"unit_off": 1, "unit_type": "prod_5h1pp1ng", "effect": "ADD_MISSING_ITEMS"}}}, nil)
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "GIFT"}}, "order": map[string]any{"items": []any{
		map[string]any{"product_id": "mug", "quantity": 1, "price": 1000}}}}, app), http.StatusOK)
	order := red["order"].(map[string]any)
	items := order["items"].([]any)
	poster := items[1].(map[string]any)
	if len(items) != 3 || num(poster["quantity"]) != 2 || num(poster["amount"]) != 3000 || num(poster["discount_amount"]) != 3000 ||
		num(order["amount"]) != 4000 || num(order["total_amount"]) != 1000 || items[2].(map[string]any)["product_id"] != "prod_5h1pp1ng" {
		t.Fatalf("unit prices: %s", mustJSON(order))
	}
	sameAmounts(t, e, app, order)
}

// TestPromotionTierValidationRoute: the legacy POST
// /v1/promotions/tiers/{id}/validation computes one tier with its rules,
// answers valid:false with the reason and the rule's text, 404 for an
// unknown tier, and writes nothing.
func TestPromotionTierValidationRoute(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	pc := adventureCatalog(t, e, app)
	_, tiers := promotionCampaign(t, e, app, "Brand", map[string]any{"name": "Tenth",
		"action": map[string]any{"discount": map[string]any{"type": "PERCENT", "percent_off": 10}}})
	tier := tiers[0]["id"].(string)
	cartRule(t, e, app, map[string]any{"rules": map[string]any{"1": map[string]any{"name": "order.items.any",
		"conditions": map[string]any{"$is": []any{map[string]any{"object": "product", "id": "tshirt"}}}}},
		"error":         map[string]any{"message": "Add a T-shirt"},
		"applicable_to": map[string]any{"included": []any{map[string]any{"object": "products_collection", "id": pc}}}},
		map[string]any{"related_object_type": "promotion_tier", "related_object_id": tier})
	path := "/v1/promotions/tiers/" + tier + "/validation"
	res := must(t, e.DoJSON(http.MethodPost, path, map[string]any{"order": adventureOrder()}, app), http.StatusOK)
	order := res["order"].(map[string]any)
	// PERCENT without effect and with applicable_to: APPLY_TO_ITEMS on the collection.
	if res["valid"] != true || res["id"] != tier || mustJSON(lineDiscounts(order)) != "[200,450,600,0]" ||
		num(res["discount_amount"]) != 1250 || num(res["applicable_to"].(map[string]any)["total"]) != 4 {
		t.Fatalf("valid tier: %s", mustJSON(res))
	}
	res = must(t, e.DoJSON(http.MethodPost, path, map[string]any{"order": map[string]any{"items": []any{
		map[string]any{"product_id": "mug", "quantity": 1, "price": 1000}}}}, app), http.StatusOK)
	if res["valid"] != false || res["reason"] != "order does not match validation rules" ||
		res["error"].(map[string]any)["message"] != "Add a T-shirt" || res["error"].(map[string]any)["key"] != "order_rules_violated" {
		t.Fatalf("invalid tier: %s", mustJSON(res))
	}
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/promo_nope/validation", map[string]any{}, app), "promotion_tier", "promo_nope")
	if l := must(t, e.Do(http.MethodGet, "/v1/orders", nil, app), http.StatusOK); num(l["total"]) != 0 {
		t.Errorf("a validation stored an order: %s", mustJSON(l))
	}
}

// TestClientPromotionTiers: GET /client/v1/promotions/tiers lists the
// project's tiers for a client key from a trusted origin only.
func TestClientPromotionTiers(t *testing.T) {
	e := resttest.New(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	promotionCampaign(t, e, app, "Web deals", amountTier("Ten off", 1000))
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(e.Project, shopOrigin)
	l := must(t, e.Do(http.MethodGet, "/client/v1/promotions/tiers?is_available=true", nil, cl), http.StatusOK)
	if num(l["total"]) != 1 || l["tiers"].([]any)[0].(map[string]any)["name"] != "Ten off" {
		t.Fatalf("client tiers: %s", mustJSON(l))
	}
	if r := e.Do(http.MethodGet, "/client/v1/promotions/tiers", nil, resttest.Client(e.Project, "https://evil.example.net")); r.Status != http.StatusForbidden {
		t.Errorf("foreign origin: %d %s", r.Status, r.Body)
	}
}
