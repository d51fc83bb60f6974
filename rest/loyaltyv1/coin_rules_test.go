package loyaltyv1_test

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
	f := resttest.NewRewardFixture(t, e, 5000)
	card := resttest.MemberCard(t, e, f.App, "Points", "alice")
	rule := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "min order",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{10000}}},
			"logic": "1"}}, f.App), http.StatusOK)["id"].(string)
	coin := f.CreateReward(t, map[string]any{"name": "Pay with points", "type": "COIN",
		"parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 20, "points_ratio": 100}}})["id"].(string)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.Points,
		"validation_rules": []any{rule}}, f.App), http.StatusOK)
	redeem := func(amount int) map[string]any {
		return map[string]any{"reward": map[string]any{"id": coin, "points": 100}, "order": map[string]any{"amount": amount}}
	}

	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath(f.Points, card), redeem(5000), f.App), http.StatusBadRequest, "order_rules_violated")
	if b := resttest.CardBalance(t, e, f.App, card); b != 5000 {
		t.Fatalf("a refused payment spent points: balance %v", b)
	}
	ok := resttest.Must(t, e.DoJSON(http.MethodPost, redeemPath(f.Points, card), redeem(20000), f.App), http.StatusOK)
	if o := ok["order"].(map[string]any); num(o["total_discount_amount"]) != 2000 {
		t.Errorf("order %v, want 2000 off", o)
	}
	if b := resttest.CardBalance(t, e, f.App, card); b != 4900 {
		t.Errorf("balance %v, want 4900", b)
	}
	if n := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_REDEMPTION)).CountX(resttest.SystemCtx()); n != 1 {
		t.Errorf("%d POINTS_REDEMPTION transactions, want 1", n)
	}
}
