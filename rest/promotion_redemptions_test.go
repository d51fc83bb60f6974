package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func tierRedeemable(id string) map[string]any {
	return map[string]any{"object": "promotion_tier", "id": id}
}

func percentTier(name string, off int) map[string]any {
	return map[string]any{"name": name, "action": map[string]any{"discount": map[string]any{"type": "PERCENT", "percent_off": off}}}
}

// tierSummary reads a tier's summary: redeemed, order total, discount total.
func tierSummary(t *testing.T, e *resttest.Env, h resttest.Headers, id string) [3]float64 {
	t.Helper()
	s := must(t, e.Do(http.MethodGet, "/v1/promotions/tiers/"+id, nil, h), http.StatusOK)["summary"].(map[string]any)
	o := s["orders"].(map[string]any)
	return [3]float64{num(s["redemptions"].(map[string]any)["total_redeemed"]), num(o["total_amount"]), num(o["total_discount_amount"])}
}

func TestPromotionTierValidationMaths(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := promotionCampaign(t, e, app, "Cart", amountTier("Ten off", 1000), percentTier("Tenth", 10))
	ten, tenth := tiers[0]["id"].(string), tiers[1]["id"].(string)
	discountCode(t, e, app, "Codes", "PCT20", map[string]any{"type": "PERCENT", "percent_off": 20}, nil)

	// A tier alone: 1000 off a 6000 cart.
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(ten)},
		"order": cart(), "options": map[string]any{"expand": []string{"redeemable"}}}, app), http.StatusOK)
	r0 := res["redeemables"].([]any)[0].(map[string]any)
	if res["valid"] != true || r0["status"] != "APPLICABLE" || r0["object"] != "promotion_tier" || r0["id"] != ten ||
		r0["campaign_name"] != "Cart" || num(res["order"].(map[string]any)["total_amount"]) != 5000 ||
		r0["result"].(map[string]any)["discount"].(map[string]any)["amount_off"] != float64(1000) {
		t.Fatalf("tier validation: %s", mustJSON(res))
	}
	// Chained with a voucher and another tier, each on the order as left
	// by the previous one: 6000 −1000 = 5000, −20% = 4000, −10% = 3600.
	res = must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(ten),
		map[string]any{"object": "voucher", "id": "PCT20"}, tierRedeemable(tenth)}, "order": cart()}, app), http.StatusOK)
	order := res["order"].(map[string]any)
	if res["valid"] != true || num(order["total_amount"]) != 3600 || num(order["total_discount_amount"]) != 2400 {
		t.Fatalf("stacked with a voucher: %s", mustJSON(order))
	}
	// A stack stands for its tiers, in its order: 10% then 1000 off.
	stack := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/Cart/stacks", map[string]any{"name": "both",
		"tiers": map[string]any{"ids": []string{tenth, ten}}}, app), http.StatusOK)
	res = must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "promotion_stack", "id": stack["id"]}}, "order": cart()}, app), http.StatusOK)
	rs := res["redeemables"].([]any)
	if res["valid"] != true || len(rs) != 2 || rs[0].(map[string]any)["id"] != tenth || rs[1].(map[string]any)["object"] != "promotion_tier" ||
		num(res["order"].(map[string]any)["total_amount"]) != 4400 {
		t.Fatalf("stack: %s", mustJSON(res))
	}
	// A stack goes alone; an unknown stack is 404.
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "promotion_stack", "id": stack["id"]}, tierRedeemable(ten)}}, app),
		http.StatusBadRequest, "invalid_redeemables", "Promotion Stack")
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "promotion_stack", "id": "stack_nope"}}}, app), "promotion_stack", "stack_nope")
}

func TestPromotionTierValidationFailures(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "big carts",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10000}}}, "logic": "1"}}, app), http.StatusOK)
	ruled := amountTier("Big", 500)
	ruled["validation_rules"] = []string{rule["id"].(string)}
	expired := amountTier("Old", 500)
	expired["start_date"], expired["expiration_date"] = "2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z"
	_, tiers := promotionCampaign(t, e, app, "Rules", amountTier("Off", 500), ruled, expired)
	off, big, old := tiers[0]["id"].(string), tiers[1]["id"].(string), tiers[2]["id"].(string)
	must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+off+"/disable", nil, app), http.StatusOK)

	for _, tc := range []struct{ id, key, details string }{
		{off, "promotion_inactive", "Promotion Tier with id: " + off + " is disabled."},
		{big, "order_rules_violated", "Promotion Tier cannot be redeemed because of violated validation rules: " + rule["id"].(string)},
		{old, "promotion_not_active_now", old},
		{"promo_nope", "not_found", "promo_nope"},
	} {
		res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(tc.id)},
			"order": cart()}, app), http.StatusOK)
		r := res["redeemables"].([]any)[0].(map[string]any)
		errObj, _ := r["result"].(map[string]any)["error"].(map[string]any)
		if res["valid"] != false || r["status"] != "INAPPLICABLE" || errObj == nil || errObj["key"] != tc.key ||
			!contains(errObj["details"], tc.details) {
			t.Errorf("%s: %s", tc.key, mustJSON(r))
		}
		if tc.key == "not_found" && (errObj["resource_type"] != "promotion_tier" || errObj["code"] != float64(404)) {
			t.Errorf("unknown tier: %v", errObj)
		}
	}
	// A failed redemption of a disabled tier: 400 with the error object, a
	// failure record, and nothing counted.
	r := e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(off)}, "order": cart()}, app)
	failed := wantErrorKey(t, r, http.StatusBadRequest, "promotion_inactive")
	if failed["message"] != "Inactive Promotion" || failed["resource_type"] != "redemption" {
		t.Errorf("failed redemption: %s", r.Body)
	}
	if s := tierSummary(t, e, app, off); s[0] != 0 {
		t.Errorf("a failed redemption counted: %v", s)
	}
}

func contains(v any, sub string) bool {
	s, _ := v.(string)
	return strings.Contains(s, sub)
}

func TestPromotionTierRedemptionAndRollback(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := promotionCampaign(t, e, app, "Redeem", amountTier("Ten off", 1000))
	id := tiers[0]["id"].(string)
	discountCode(t, e, app, "Codes", "FIVE", map[string]any{"type": "AMOUNT", "amount_off": 500}, 1)

	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{
		"redeemables": []any{tierRedeemable(id), map[string]any{"object": "voucher", "id": "FIVE"}},
		"order":       cart(), "customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	parent := red["parent_redemption"].(map[string]any)
	children := red["redemptions"].([]any)
	if len(children) != 2 || num(red["order"].(map[string]any)["total_amount"]) != 4500 {
		t.Fatalf("redemption: %s", mustJSON(red))
	}
	child := children[0].(map[string]any)
	pt, _ := child["promotion_tier"].(map[string]any)
	if child["related_object_type"] != "promotion_tier" || child["related_object_id"] != id || child["voucher"] != nil ||
		pt == nil || pt["id"] != id || child["redemption"] != parent["id"] {
		t.Fatalf("tier child: %s", mustJSON(child))
	}
	if s := tierSummary(t, e, app, id); s != [3]float64{1, 6000, 1000} {
		t.Fatalf("summary after redemption: %v", s)
	}
	got := must(t, e.Do(http.MethodGet, "/v1/redemptions/"+child["id"].(string), nil, app), http.StatusOK)
	if got["promotion_tier"].(map[string]any)["summary"].(map[string]any)["redemptions"].(map[string]any)["total_redeemed"] != float64(1) {
		t.Errorf("GET redemption: %s", mustJSON(got))
	}

	// Rolling back the parent restores the tier's summary and the voucher.
	rb := must(t, e.Do(http.MethodPost, "/v1/redemptions/"+parent["id"].(string)+"/rollbacks", nil, app), http.StatusOK)
	if len(rb["rollbacks"].([]any)) != 2 {
		t.Fatalf("rollback: %s", mustJSON(rb))
	}
	if s := tierSummary(t, e, app, id); s != [3]float64{0, 0, 0} {
		t.Fatalf("summary after rollback: %v", s)
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/FIVE", nil, app), http.StatusOK)
	if num(v["redemption"].(map[string]any)["redeemed_quantity"]) != 0 {
		t.Fatalf("voucher after rollback: %v", v["redemption"])
	}
}

func TestPromotionTierExclusiveCategory(t *testing.T) {
	f := newStackingFixture(t)
	exclusive := amountTier("Exclusive", 1000)
	exclusive["category_id"] = f.cats["X"]
	_, tiers := promotionCampaign(t, f.e, f.app, "Excl", exclusive)
	f.code(t, "PLAIN", "A", amountOff(100))
	f.rules(t, map[string]any{"exclusive_categories": []string{f.cats["X"]}})
	res := must(t, f.e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		tierRedeemable(tiers[0]["id"].(string)), map[string]any{"object": "voucher", "id": "PLAIN"}}, "order": cart()}, f.app), http.StatusOK)
	wantStackOutcomes(t, res, map[string]string{tiers[0]["id"].(string): "APPLICABLE:", "PLAIN": "SKIPPED:exclusion_rules_not_met"})
}

func TestPromotionTierRedemptionTenancy(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := promotionCampaign(t, e, app, "Mine", amountTier("Ten off", 1000))
	other := resttest.App(e.NewProject("other"))
	id := tiers[0]["id"].(string)
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": cart()}, other), http.StatusOK)
	if res["valid"] != false {
		t.Errorf("another project validates the tier: %s", mustJSON(res))
	}
	r := e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": cart()}, other)
	if r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
		t.Errorf("another project redeems the tier: %d %s", r.Status, r.Body)
	}
	if s := tierSummary(t, e, app, id); s[0] != 0 {
		t.Errorf("counted: %v", s)
	}
}

// TestPromotionTierRedemptionLimitUnderRace: a tier limited to Q
// redemptions per customer (its validation rule, as the reference models
// tier limits) redeemed by 100 concurrent requests for that customer over
// two server processes succeeds exactly Q times.
func TestPromotionTierRedemptionLimitUnderRace(t *testing.T) {
	e, app, servers := twoServers(t)
	const q = 7
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "seven per customer",
		"rules": map[string]any{"1": map[string]any{"name": "redemption.count.per_customer", "conditions": map[string]any{"$less_than_or_equal": []any{q}}}, "logic": "1"}}, app), http.StatusOK)
	limited := amountTier("Limited", 100)
	limited["validation_rules"] = []string{rule["id"].(string)}
	_, tiers := promotionCampaign(t, e, app, "Race", limited)
	id := tiers[0]["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "racer"}, app), http.StatusOK)
	resps := burst(e, servers, app, 100, func(int) (string, any) {
		return "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(id)},
			"customer": map[string]any{"source_id": "racer"}, "order": map[string]any{"amount": 1000}}
	})
	wantOutcomes(t, "tier redemptions", resps, map[string]int{"200": q, "400 redemption_rules_violated": 100 - q})
	if s := tierSummary(t, e, app, id); s[0] != q {
		t.Fatalf("total_redeemed = %v, want %d", s[0], q)
	}
}
