package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
)

// TestAutoRedeemProgramDailyLimitHoldsUnderConcurrency: the program's
// auto-redemptions per day are capped (250 by the documents; lowered to 5
// here) across cards: 12 members each credited enough for one reward, all
// at once over two server processes (PostgreSQL), get exactly 5 rewards;
// the other cards keep their points.
func TestAutoRedeemProgramDailyLimitHoldsUnderConcurrency(t *testing.T) {
	e, _, servers := twoServers(t)
	old := loyaltyv1.AutoRedeemPerProgramDay
	loyaltyv1.AutoRedeemPerProgramDay = 5
	t.Cleanup(func() { loyaltyv1.AutoRedeemPerProgramDay = old })
	f := newRewardFixture(t, e, 0)
	mug := f.createReward(t, map[string]any{"name": "Mug", "type": "MATERIAL",
		"parameters": map[string]any{"product": map[string]any{"id": "mug"}}})["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+mug+"/assignments", map[string]any{"campaign": f.points,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 100, "auto_redeem": true}}}, f.app), http.StatusOK)
	cards := make([]string, 12)
	for i := range cards {
		cards[i] = memberCard(t, e, f.app, "Points", fmt.Sprintf("m-%d", i))
	}
	resps := burst(e, servers, f.app, len(cards), func(i int) (string, any) {
		return "/v1/loyalties/members/" + cards[i] + "/balance", map[string]any{"points": 100}
	})
	for _, r := range resps {
		if r.Status != http.StatusOK {
			t.Fatalf("credit: %d %s", r.Status, r.Body)
		}
	}
	n := e.DB.Client.Redemption.Query().Where(redemption.CampaignID(f.points), redemption.ResultEQ(redemption.ResultSUCCESS)).CountX(systemCtx())
	if n != 5 {
		t.Errorf("%d auto-redemptions in the program, want 5", n)
	}
	kept := 0
	for _, c := range cards {
		if cardBalance(t, e, f.app, c) == 100 {
			kept++
		}
	}
	if kept != len(cards)-5 {
		t.Errorf("%d cards kept their points, want %d", kept, len(cards)-5)
	}
}
