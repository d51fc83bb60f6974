package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestAutoRedeemWhenTheBalanceCoversTheCost: with an auto_redeem
// assignment (100 points, a MATERIAL reward with 3 in stock), adding
// points redeems the reward for the card's holder as often as the balance
// covers it; points short of the cost stay; an exhausted stock stops it
// and the points stay on the card.
func TestAutoRedeemWhenTheBalanceCoversTheCost(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)
	card := resttest.MemberCard(t, e, f.App, "Points", "alice")
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "type": "MATERIAL", "stock": 3,
		"parameters": map[string]any{"product": map[string]any{"id": "mug"}}})["id"].(string)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+mug+"/assignments", map[string]any{"campaign": f.Points,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 100, "auto_redeem": true}}}, f.App), http.StatusOK)
	add := func(points int) {
		t.Helper()
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/loyalties/members/"+card+"/balance", map[string]any{"points": points}, f.App), http.StatusOK)
	}
	redeemed := func() int {
		return e.DB.Client.Redemption.Query().Where(redemption.VoucherCode(card), redemption.ResultEQ(redemption.ResultSUCCESS)).CountX(resttest.SystemCtx())
	}
	add(250)
	if b, n := resttest.CardBalance(t, e, f.App, card), redeemed(); b != 50 || n != 2 {
		t.Fatalf("after 250 points: balance %v, %d redemptions; want 50 and 2", b, n)
	}
	add(30)
	if b, n := resttest.CardBalance(t, e, f.App, card), redeemed(); b != 80 || n != 2 {
		t.Fatalf("after 30 more: balance %v, %d redemptions; want 80 and 2", b, n)
	}
	add(500) // one unit of stock left: 580 - 100
	if b, n := resttest.CardBalance(t, e, f.App, card), redeemed(); b != 480 || n != 3 {
		t.Errorf("after the stock ran out: balance %v, %d redemptions; want 480 and 3", b, n)
	}
}
