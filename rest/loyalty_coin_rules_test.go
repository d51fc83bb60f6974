package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCoinRewardRespectsItsValidationRule: a COIN reward assigned with a
// validation rule (order amount at least 100.00) pays for an order that
// passes the rule and is refused, spending nothing, for one that does not.
func TestCoinRewardRespectsItsValidationRule(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 5000)
	card := memberCard(t, e, f.app, "Points", "alice")
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "min order",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{10000}}},
			"logic": "1"}}, f.app), http.StatusOK)["id"].(string)
	coin := f.createReward(t, map[string]any{"name": "Pay with points", "type": "COIN",
		"parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 20, "points_ratio": 100}}})["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.points,
		"validation_rules": []any{rule}}, f.app), http.StatusOK)
	redeem := func(amount int) map[string]any {
		return map[string]any{"reward": map[string]any{"id": coin, "points": 100}, "order": map[string]any{"amount": amount}}
	}

	wantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath(f.points, card), redeem(5000), f.app), http.StatusBadRequest, "order_rules_violated")
	if b := cardBalance(t, e, f.app, card); b != 5000 {
		t.Fatalf("a refused payment spent points: balance %v", b)
	}
	ok := must(t, e.DoJSON(http.MethodPost, redeemPath(f.points, card), redeem(20000), f.app), http.StatusOK)
	if o := ok["order"].(map[string]any); num(o["total_discount_amount"]) != 2000 {
		t.Errorf("order %v, want 2000 off", o)
	}
	if b := cardBalance(t, e, f.app, card); b != 4900 {
		t.Errorf("balance %v, want 4900", b)
	}
	if n := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_REDEMPTION)).CountX(systemCtx()); n != 1 {
		t.Errorf("%d POINTS_REDEMPTION transactions, want 1", n)
	}
}
