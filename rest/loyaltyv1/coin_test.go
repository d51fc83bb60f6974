package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCoinRewardPaysForOrdersWithPoints: a COIN reward ({20, 100}: 100
// points are worth 20.00) redeemed with a loyalty card takes its points'
// worth off the order once; without reward.points it spends the fewest
// points (in blocks of 100) covering the whole order. No order, or points
// the card does not cover, is a 400 that spends nothing.
func TestCoinRewardPaysForOrdersWithPoints(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 5000)
	card := resttest.MemberCard(t, e, f.App, "Points", "alice")
	coin := f.CreateReward(t, map[string]any{"name": "Pay with points", "type": "COIN",
		"parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 20, "points_ratio": 100}}})["id"].(string)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.Points}, f.App), http.StatusOK)
	redeem := func(points any, amount any) map[string]any {
		body := map[string]any{"reward": map[string]any{"id": coin}}
		if points != nil {
			body["reward"].(map[string]any)["points"] = points
		}
		if amount != nil {
			body["order"] = map[string]any{"amount": amount}
		}
		return map[string]any{"path": redeemPath(f.Points, card), "body": body}
	}
	do := func(r map[string]any) resttest.Response {
		return e.DoJSON(http.MethodPost, r["path"].(string), r["body"], f.App)
	}

	resttest.WantErrorKey(t, do(redeem(100, nil)), http.StatusBadRequest, "invalid_order")
	resttest.WantErrorKey(t, do(redeem(nil, 1_000_000)), http.StatusBadRequest, "loyalty_card_points_exceeded") // needs 50000 points
	if b := resttest.CardBalance(t, e, f.App, card); b != 5000 {
		t.Fatalf("refused redemptions spent points: balance %v", b)
	}

	first := resttest.Must(t, do(redeem(100, 45000)), http.StatusOK)
	if o := first["order"].(map[string]any); num(o["total_discount_amount"]) != 2000 || num(o["total_amount"]) != 43000 {
		t.Errorf("100 points: order %v, want 2000 off", o)
	}
	if b := resttest.CardBalance(t, e, f.App, card); b != 4900 {
		t.Errorf("balance %v after spending 100, want 4900", b)
	}
	whole := resttest.Must(t, do(redeem(nil, 45000)), http.StatusOK)
	if o := whole["order"].(map[string]any); num(o["total_discount_amount"]) != 45000 || num(o["total_amount"]) != 0 {
		t.Errorf("whole order: %v, want 45000 off", o)
	}
	if b := resttest.CardBalance(t, e, f.App, card); b != 2600 {
		t.Errorf("balance %v after paying a 450.00 order (2300 points), want 2600", b)
	}
	n := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_REDEMPTION)).CountX(resttest.SystemCtx())
	if n != 2 {
		t.Errorf("%d POINTS_REDEMPTION transactions, want 2", n)
	}
}
