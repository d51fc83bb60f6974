package loyaltyv1_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestAutoRedeemProgramDailyLimitHoldsUnderConcurrency: the program's
// auto-redemptions per day are capped (250 by the documents; lowered to 5
// here) across cards: 12 members each credited enough for one reward, all
// at once over two server processes (PostgreSQL), get exactly 5 rewards;
// the other cards keep their points.
func TestAutoRedeemProgramDailyLimitHoldsUnderConcurrency(t *testing.T) {
	e, _, servers := resttest.TwoServers(t)
	old := loyaltyv1.AutoRedeemPerProgramDay
	loyaltyv1.AutoRedeemPerProgramDay = 5
	t.Cleanup(func() { loyaltyv1.AutoRedeemPerProgramDay = old })
	f := resttest.NewRewardFixture(t, e, 0)
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "type": "MATERIAL",
		"parameters": map[string]any{"product": map[string]any{"id": "mug"}}})["id"].(string)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+mug+"/assignments", map[string]any{"campaign": f.Points,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 100, "auto_redeem": true}}}, f.App), http.StatusOK)
	cards := make([]string, 12)
	for i := range cards {
		cards[i] = resttest.MemberCard(t, e, f.App, "Points", fmt.Sprintf("m-%d", i))
	}
	resps := resttest.Burst(e, servers, f.App, len(cards), func(i int) (string, any) {
		return "/v1/loyalties/members/" + cards[i] + "/balance", map[string]any{"points": 100}
	})
	for _, r := range resps {
		if r.Status != http.StatusOK {
			t.Fatalf("credit: %d %s", r.Status, r.Body)
		}
	}
	n := e.DB.Client.Redemption.Query().Where(redemption.CampaignID(f.Points), redemption.ResultEQ(redemption.ResultSUCCESS)).CountX(resttest.SystemCtx())
	if n != 5 {
		t.Errorf("%d auto-redemptions in the program, want 5", n)
	}
	kept := 0
	for _, c := range cards {
		if resttest.CardBalance(t, e, f.App, c) == 100 {
			kept++
		}
	}
	if kept != len(cards)-5 {
		t.Errorf("%d cards kept their points, want %d", kept, len(cards)-5)
	}
}
