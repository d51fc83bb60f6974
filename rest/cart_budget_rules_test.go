package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestRedemptionCountPerAPIKey: redemption.count.per_api_key counts the
// tier's redemptions made with the calling application key (the one being
// checked included), so each key has its own budget.
func TestRedemptionCountPerAPIKey(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other, _ := newKey(t, e, e.NewManagementKey(), map[string]any{"name": "second shop"})
	_, tiers := promotionCampaign(t, e, app, "Per key", amountTier("Five off", 500))
	tier := tiers[0]["id"].(string)
	cartRule(t, e, app, map[string]any{"rules": map[string]any{"1": map[string]any{"name": "redemption.count.per_api_key",
		"conditions": map[string]any{"$less_than_or_equal": []any{2}}}, "logic": "1"}},
		map[string]any{"promotion_tier": tier})
	redeem := func(h resttest.Headers) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
			map[string]any{"object": "promotion_tier", "id": tier}}, "order": map[string]any{"amount": 2000}}, h)
	}
	must(t, redeem(app), http.StatusOK)
	must(t, redeem(app), http.StatusOK)
	wantErrorKey(t, redeem(app), http.StatusBadRequest, "redemption_rules_violated")
	// The other key has its own two.
	must(t, redeem(other), http.StatusOK)
	must(t, redeem(other), http.StatusOK)
	wantErrorKey(t, redeem(other), http.StatusBadRequest, "redemption_rules_violated")
	// A validation of the first key reports the spent budget.
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "promotion_tier", "id": tier}}, "order": map[string]any{"amount": 2000}}, app), http.StatusOK)
	if res["valid"] != false {
		t.Errorf("validation after the key's budget is spent: %s", mustJSON(res))
	}
}
