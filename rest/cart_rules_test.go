package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// cartRule creates a validation rule and assigns it to a promotion tier or voucher.
func cartRule(t *testing.T, e *resttest.Env, h resttest.Headers, body map[string]any, assign map[string]any) string {
	t.Helper()
	if body["name"] == nil {
		body["name"] = "rule"
	}
	id := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", body, h), http.StatusOK)["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+id+"/assignments", assign, h), http.StatusOK)
	return id
}

// TestCartRuleNames: the order.items.* rules with collections and nested
// rules decide a tier's validation; a failing rule's own error.message is
// the failure's error.message; redemption.count counts the tier's
// redemptions; a rule on an unknown product or collection is a 404.
func TestCartRuleNames(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createProduct(t, e, app, map[string]any{"source_id": "mug", "name": "Mug", "price": 1000, "metadata": map[string]any{"brand": "Adventure"}})
	createProduct(t, e, app, map[string]any{"source_id": "poster", "name": "Poster", "price": 1500, "metadata": map[string]any{"brand": "Adventure"}})
	createProduct(t, e, app, map[string]any{"source_id": "bottle", "name": "Bottle", "price": 2500})
	adv := must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "AUTO_UPDATE", "name": "Adventure",
		"filter": map[string]any{"junction": "AND", "metadata.brand": map[string]any{"conditions": map[string]any{"$is": []any{"Adventure"}}}}}, app), http.StatusOK)
	_, tiers := promotionCampaign(t, e, app, "Brand", amountTier("Brand deal", 500))
	tier := tiers[0]["id"].(string)
	cartRule(t, e, app, map[string]any{"rules": map[string]any{
		"1": map[string]any{"name": "order.items.any", "conditions": map[string]any{"$is": []any{
			map[string]any{"id": adv["id"], "object": "products_collection"}}},
			"rules": map[string]any{"1": map[string]any{"name": "order.items.aggregated_quantity", "conditions": map[string]any{"$more_than_or_equal": []any{3}}}},
			"error": map[string]any{"message": "Buy three Adventure items"}},
		"2":     map[string]any{"name": "redemption.count", "conditions": map[string]any{"$less_than_or_equal": []any{1}}},
		"logic": "1 and 2"}}, map[string]any{"related_object_type": "promotion_tier", "related_object_id": tier})

	validate := func(items ...any) map[string]any {
		return must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(tier)},
			"order": map[string]any{"items": items}}, app), http.StatusOK)
	}
	line := func(product string, qty, price int) map[string]any {
		return map[string]any{"product_id": product, "quantity": qty, "price": price}
	}
	// Two Adventure units: the nested rule fails, with its message.
	res := validate(line("mug", 1, 1000), line("poster", 1, 1500), line("bottle", 3, 2500))
	r0 := res["redeemables"].([]any)[0].(map[string]any)
	errObj, _ := r0["result"].(map[string]any)["error"].(map[string]any)
	if res["valid"] != false || errObj["key"] != "order_rules_violated" ||
		errObj["error"].(map[string]any)["message"] != "Buy three Adventure items" {
		t.Fatalf("two adventure units: %s", mustJSON(res))
	}
	// Three: valid; redeemed once, the count rule then refuses a second one.
	good := []any{line("mug", 2, 1000), line("poster", 1, 1500)}
	if res = validate(good...); res["valid"] != true {
		t.Fatalf("three adventure units: %s", mustJSON(res))
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(tier)},
		"order": map[string]any{"items": good}}, app), http.StatusOK)
	res = validate(good...)
	r0 = res["redeemables"].([]any)[0].(map[string]any)
	if res["valid"] != false || r0["result"].(map[string]any)["error"].(map[string]any)["key"] != "redemption_rules_violated" {
		t.Fatalf("second redemption: %s", mustJSON(res))
	}

	// Unknown catalogue objects in a rule: 404, nothing stored.
	before := num(must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["total"])
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x", "applicable_to": map[string]any{
		"included": []any{map[string]any{"object": "product", "id": "prod_nope"}}}}, app), "product", "prod_nope")
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x", "rules": map[string]any{
		"1": map[string]any{"name": "order.items.every", "conditions": map[string]any{"$is": []any{
			map[string]any{"object": "products_collection", "id": "pc_nope"}}}}}}, app), "products_collection", "pc_nope")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x", "rules": map[string]any{
		"1": map[string]any{"name": "order.items.nope", "conditions": map[string]any{"$is": []any{1}}}}}, app),
		http.StatusBadRequest, "invalid_payload", "order.items.every")
	if after := num(must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["total"]); after != before {
		t.Fatalf("a refused rule was stored: %v → %v", before, after)
	}
}
