package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// bundleRules is a bundle_rules object: limit and parts {object, id, quantity}.
func bundleRules(limit int, parts ...[3]any) map[string]any {
	m := map[string]any{"limit": limit}
	for i, p := range parts {
		typ := "product_or_sku"
		if p[0] == "products_collection" {
			typ = "products_collection"
		}
		m[string(rune('1'+i))] = map[string]any{"name": "order.items.any",
			"conditions": map[string]any{"$is": []any{map[string]any{"id": p[1], "object": p[0], "type": typ}}},
			"rules": map[string]any{"1": map[string]any{"name": "order.items.aggregated_quantity",
				"conditions": map[string]any{"$is": []any{p[2]}}}, "logic": "1"}}
	}
	return m
}

// bundleShop is the reference's §7.4 sample catalogue and a promotion tier
// (AMOUNT 1000 off the order) whose rule set holds bundle_rules "1 mug +
// 1 poster", limit 3.
type bundleShop struct {
	e                  *resttest.Env
	app                resttest.Headers
	tier, rule         string
	mug, poster, shirt string
}

func newBundleShop(t *testing.T) *bundleShop {
	e := resttest.New(t)
	s := &bundleShop{e: e, app: resttest.App(e.Project)}
	s.mug = createProduct(t, e, s.app, map[string]any{"source_id": "mug", "name": "Mug", "price": 1000})["id"].(string)
	s.poster = createProduct(t, e, s.app, map[string]any{"source_id": "poster", "name": "Poster", "price": 1500})["id"].(string)
	s.shirt = createProduct(t, e, s.app, map[string]any{"source_id": "tshirt", "name": "T-shirt", "price": 2000})["id"].(string)
	createProduct(t, e, s.app, map[string]any{"source_id": "bottle", "name": "Bottle", "price": 2500})
	_, tiers := promotionCampaign(t, e, s.app, "Bundles", amountTier("Mug and poster", 1000))
	s.tier = tiers[0]["id"].(string)
	s.rule = cartRule(t, e, s.app, map[string]any{"name": "Mug and poster", "error": map[string]any{"message": "Add a mug and a poster"},
		"bundle_rules": bundleRules(3, [3]any{"product", s.mug, 1}, [3]any{"product", s.poster, 1})},
		map[string]any{"related_object_type": "promotion_tier", "related_object_id": s.tier})
	return s
}

// sampleCart is the §7.4 cart: Mug 1000×2, Poster 1500×3, T-shirt
// 2000×3, Bottle 2500×2 (amount 17500).
func sampleCart() map[string]any {
	line := func(product string, qty, price int) map[string]any {
		return map[string]any{"product_id": product, "quantity": qty, "price": price}
	}
	return map[string]any{"items": []any{line("mug", 2, 1000), line("poster", 3, 1500), line("tshirt", 3, 2000), line("bottle", 2, 2500)}}
}

// TestBundleValidationAndRedemption: the sample cart holds two bundles:
// the tier's 1000 off is taken twice and result.bundle shows them; a cart
// without a mug fails with the rule set's message and shows what is
// missing; the redemption takes 2000 off.
func TestBundleValidationAndRedemption(t *testing.T) {
	s := newBundleShop(t)
	e, app := s.e, s.app
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(s.tier)},
		"order": sampleCart()}, app), http.StatusOK)
	r0 := res["redeemables"].([]any)[0].(map[string]any)
	bundle, _ := r0["result"].(map[string]any)["bundle"].(map[string]any)
	order := res["order"].(map[string]any)
	if res["valid"] != true || bundle["quantity"] != float64(2) || bundle["limit"] != float64(3) || bundle["missing"] != nil ||
		order["discount_amount"] != float64(2000) || order["total_amount"] != float64(15500) {
		t.Fatalf("two bundles: %s", mustJSON(res))
	}
	if got := mustJSON(bundle["identified"]); got != `[{"id":"`+s.mug+`","item_index":0,"item_quantity":2,"object":"product"},{"id":"`+s.poster+`","item_index":1,"item_quantity":2,"object":"product"}]` {
		t.Fatalf("identified: %s", got)
	}

	noMug := map[string]any{"items": []any{map[string]any{"product_id": "poster", "quantity": 1, "price": 1500}}}
	res = must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(s.tier)},
		"order": noMug}, app), http.StatusOK)
	r0 = res["redeemables"].([]any)[0].(map[string]any)
	result := r0["result"].(map[string]any)
	errObj, _ := result["error"].(map[string]any)
	bundle, _ = result["bundle"].(map[string]any)
	if res["valid"] != false || errObj["key"] != "order_rules_violated" || errObj["error"].(map[string]any)["message"] != "Add a mug and a poster" ||
		bundle["quantity"] != float64(0) || mustJSON(bundle["missing"]) != `[{"id":"`+s.mug+`","item_quantity":1,"object":"product"}]` {
		t.Fatalf("no mug: %s", mustJSON(res))
	}

	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(s.tier)},
		"order": sampleCart()}, app), http.StatusOK)
	if o := red["order"].(map[string]any); o["discount_amount"] != float64(2000) || o["total_amount"] != float64(15500) {
		t.Fatalf("redemption: %s", mustJSON(red))
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(s.tier)},
		"order": noMug}, app), http.StatusBadRequest, "order_rules_violated", "")
}

// TestBundleQualification: ALL lists the tier only with a complete bundle
// (its order 2000 off); AUDIENCE_ONLY, which does not check the cart,
// lists it without one, with result.bundle showing what is missing and
// nothing taken off.
func TestBundleQualification(t *testing.T) {
	s := newBundleShop(t)
	e, app := s.e, s.app
	qualify := func(scenario string, order map[string]any) map[string]any {
		res := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"scenario": scenario, "order": order,
			"options": map[string]any{"limit": 50}}, app), http.StatusOK)
		for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
			if q := x.(map[string]any); q["id"] == s.tier {
				return q
			}
		}
		return nil
	}
	q := qualify("ALL", sampleCart())
	if q == nil || q["result"].(map[string]any)["bundle"].(map[string]any)["quantity"] != float64(2) ||
		q["order"].(map[string]any)["discount_amount"] != float64(2000) {
		t.Fatalf("ALL, two bundles: %s", mustJSON(q))
	}
	noMug := map[string]any{"items": []any{map[string]any{"product_id": "poster", "quantity": 1, "price": 1500}}}
	if q = qualify("ALL", noMug); q != nil {
		t.Fatalf("ALL listed an incomplete bundle: %s", mustJSON(q))
	}
	q = qualify("AUDIENCE_ONLY", noMug)
	if q == nil || q["order"].(map[string]any)["discount_amount"] != float64(0) ||
		mustJSON(q["result"].(map[string]any)["bundle"].(map[string]any)["missing"]) != `[{"id":"`+s.mug+`","item_quantity":1,"object":"product"}]` {
		t.Fatalf("AUDIENCE_ONLY, no mug: %s", mustJSON(q))
	}
}

// TestBundleRulesStored: bundle_rules is stored and shown (REST and
// GraphQL), checked (a bad shape is a 400, an unknown product a 404,
// nothing stored), and a PUT with null deletes it (the response shows
// {}): the tier then takes its 1000 off once, without a bundle.
func TestBundleRulesStored(t *testing.T) {
	s := newBundleShop(t)
	e, app := s.e, s.app
	got := must(t, e.Do(http.MethodGet, "/v1/validation-rules/"+s.rule, nil, app), http.StatusOK)
	if br, _ := got["bundle_rules"].(map[string]any); br == nil || br["limit"] != float64(3) || br["1"] == nil {
		t.Fatalf("GET: %s", mustJSON(got))
	}
	before := num(must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["total"])
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x",
		"bundle_rules": bundleRules(101, [3]any{"product", s.mug, 1})}, app), http.StatusBadRequest, "invalid_payload", "bundle_rules.limit")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x",
		"bundle_rules": bundleRules(1, [3]any{"product", s.mug, 0})}, app), http.StatusBadRequest, "invalid_payload", "bundle_rules.1.rules.1")
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "x",
		"bundle_rules": bundleRules(1, [3]any{"product", "prod_unknown", 1})}, app), "product", "prod_unknown")
	if after := num(must(t, e.Do(http.MethodGet, "/v1/validation-rules", nil, app), http.StatusOK)["total"]); after != before {
		t.Fatalf("refused rules were stored: %v → %v", before, after)
	}

	read := e.GraphQL(app, `query($id: ID!) { validationRule(id: $id) { id bundleRules } }`, map[string]any{"id": s.rule})
	if br, _ := read.Data["validationRule"].(map[string]any)["bundleRules"].(map[string]any); len(read.Errors) > 0 || br["limit"] != float64(3) {
		t.Fatalf("GraphQL bundleRules: %+v", read)
	}
	created := e.GraphQL(app, `mutation($in: ValidationRuleInput!) { createValidationRule(input: $in) { id bundleRules } }`,
		map[string]any{"in": map[string]any{"name": "gql", "bundleRules": bundleRules(2, [3]any{"product", s.shirt, 1})}})
	if len(created.Errors) > 0 {
		t.Fatalf("GraphQL create: %+v", created)
	}
	if br, _ := created.Data["createValidationRule"].(map[string]any)["bundleRules"].(map[string]any); br["limit"] != float64(2) {
		t.Fatalf("GraphQL create: %+v", created)
	}

	upd := must(t, e.DoJSON(http.MethodPut, "/v1/validation-rules/"+s.rule, map[string]any{"bundle_rules": nil}, app), http.StatusOK)
	if br, ok := upd["bundle_rules"].(map[string]any); !ok || len(br) != 0 {
		t.Fatalf("PUT null: %s", mustJSON(upd))
	}
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(s.tier)},
		"order": sampleCart()}, app), http.StatusOK)
	r0 := res["redeemables"].([]any)[0].(map[string]any)
	if res["valid"] != true || r0["result"].(map[string]any)["bundle"] != nil || res["order"].(map[string]any)["discount_amount"] != float64(1000) {
		t.Fatalf("after deleting bundle_rules: %s", mustJSON(res))
	}
}
