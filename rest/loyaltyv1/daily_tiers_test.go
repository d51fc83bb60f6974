package loyaltyv1_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestAutoRedeemOnOrderEarningAndInTheDailyJob: an order earning redeems
// the auto-redeem reward at once (orders API), and points already on a
// card when the assignment is made are redeemed by the daily job —
// exactly as often as the balance covers, with two workers at once.
func TestAutoRedeemOnOrderEarningAndInTheDailyJob(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)
	card := resttest.MemberCard(t, e, f.App, "Points", "alice")
	other := resttest.MemberCard(t, e, f.App, "Points", "bob")
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/loyalties/members/"+other+"/balance", map[string]any{"points": 250}, f.App), http.StatusOK)
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "type": "MATERIAL", "stock": 10,
		"parameters": map[string]any{"product": map[string]any{"id": "mug"}}})["id"].(string)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+mug+"/assignments", map[string]any{"campaign": f.Points,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 100, "auto_redeem": true}}}, f.App), http.StatusOK)
	redeemed := func(code string) int {
		return e.DB.Client.Redemption.Query().Where(redemption.VoucherCode(code), redemption.ResultEQ(redemption.ResultSUCCESS)).CountX(resttest.SystemCtx())
	}

	// Order earning: 1 point per 100 cents of a 23000 order → 230 points, 2 rewards.
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+f.Points+"/earning-rules", []any{map[string]any{"event": "order.paid",
		"loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_AMOUNT",
			"order": map[string]any{"amount": map[string]any{"every": 100, "points": 1}}}}}, f.App); r.Status != http.StatusOK {
		t.Fatalf("earning rule %d %s", r.Status, r.Body)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": "o-auto", "amount": 23000, "status": "PAID",
		"customer": map[string]any{"source_id": "alice"}}, f.App)
	if b, n := resttest.CardBalance(t, e, f.App, card), redeemed(card); b != 30 || n != 2 {
		t.Fatalf("after the order: balance %v, %d redemptions; want 30 and 2", b, n)
	}

	// The daily job: bob's 250 points (added before the assignment) → 2 rewards, once.
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC(), 2); r.AutoRedeemed != 2 {
		t.Errorf("daily job auto-redeemed %d, want 2", r.AutoRedeemed)
	}
	if b, n := resttest.CardBalance(t, e, f.App, other), redeemed(other); b != 50 || n != 2 {
		t.Errorf("after the daily job: balance %v, %d redemptions; want 50 and 2", b, n)
	}
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC(), 1); r.AutoRedeemed != 0 {
		t.Errorf("second run auto-redeemed %d, want 0", r.AutoRedeemed)
	}
}

// TestV1TiersProlongAndExpireByTheDailyJob: with POINTS_IN_PERIOD (MONTH)
// and END_OF_NEXT_PERIOD, a card that reached Gold this month is prolonged
// by the daily job next month (one PROLONGED activity, the prolonged and
// expiration.changed webhook events, the prolonged rule's 7 points), once
// however often the job runs; the month after, Gold expires (left).
func TestV1TiersProlongAndExpireByTheDailyJob(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	events := []string{"customer.loyalty.tier.joined", "customer.loyalty.tier.prolonged",
		"customer.loyalty.tier.expiration.changed", "customer.loyalty.tier.left"}
	resttest.CreateHook(t, e, e.NewManagementKey(), "http://127.0.0.1:9/never", events...)
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{
		"name": "Periods", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0},
			"code_config": map[string]any{"pattern": "LC-########"}},
		"loyalty_tiers_expiration": map[string]any{"qualification_type": "POINTS_IN_PERIOD", "qualification_period": "MONTH",
			"start_date": map[string]any{"type": "IMMEDIATE"}, "expiration_date": map[string]any{"type": "END_OF_NEXT_PERIOD", "extend": "P0D"}},
	}, app)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "climber")["code"].(string)
	r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{
		map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app)
	var tiers []map[string]any
	if err := json.Unmarshal(r.Body, &tiers); r.Status != http.StatusOK || err != nil || len(tiers) != 1 {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "customer.loyalty.tier.prolonged",
		"loyalty_tier": map[string]any{"id": "__ANY__"}, "loyalty": map[string]any{"type": "FIXED", "points": 7}}}, app); r.Status != http.StatusOK {
		t.Fatalf("rules %d %s", r.Status, r.Body)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 150}, app)
	count := func(typ string) int {
		return e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type(typ)).CountX(resttest.SystemCtx())
	}
	activities := func(typ string) []any {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodGet, "/v1/customers/climber/activities?limit=100&type="+typ, nil, app)["data"].([]any)
	}

	now := time.Now().UTC()
	if r := resttest.RunDailyPoints(t, e, now, 2); r.TiersSettled != 0 {
		t.Errorf("this month: %d tiers settled, want 0", r.TiersSettled)
	}
	next := time.Date(now.Year(), now.Month()+1, 2, 3, 0, 0, 0, time.UTC)
	for i := range 2 { // a second run settles nothing more
		want := 1 - i
		if r := resttest.RunDailyPoints(t, e, next, 2); r.TiersSettled != want {
			t.Errorf("next month, run %d: %d tiers settled, want %d", i, r.TiersSettled, want)
		}
	}
	if count(events[1]) != 1 || count(events[2]) != 1 || count(events[3]) != 0 {
		t.Errorf("events after the prolongation: prolonged %d, expiration.changed %d, left %d",
			count(events[1]), count(events[2]), count(events[3]))
	}
	ev := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type(events[2])).OnlyX(resttest.SystemCtx())
	var data map[string]any
	if err := json.Unmarshal([]byte(ev.Data), &data); err != nil || data["expiration_date"] != time.Date(next.Year(), next.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly) {
		t.Errorf("expiration.changed data %s", ev.Data)
	}
	if a := activities(events[1]); len(a) != 1 ||
		a[0].(map[string]any)["data"].(map[string]any)["loyalty_tier"].(map[string]any)["id"] != tiers[0]["id"] {
		t.Errorf("prolonged activities %v", a)
	}
	if a := activities(events[2]); len(a) != 1 || a[0].(map[string]any)["data"].(map[string]any)["expiration_date"] !=
		time.Date(next.Year(), next.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly) {
		t.Errorf("expiration.changed activities %v", a)
	}
	if b := resttest.CardPoints(t, e, app, code)["balance"]; b != float64(157) {
		t.Errorf("balance %v after the prolonged rule, want 157", b)
	}

	later := time.Date(now.Year(), now.Month()+2, 2, 3, 0, 0, 0, time.UTC)
	if r := resttest.RunDailyPoints(t, e, later, 2); r.TiersSettled != 1 {
		t.Errorf("the month after: %d tiers settled, want 1", r.TiersSettled)
	}
	if count(events[3]) != 1 || len(activities(events[3])) != 1 || count(events[1]) != 1 {
		t.Errorf("after the expiry: left %d (activities %d), prolonged %d", count(events[3]), len(activities(events[3])), count(events[1]))
	}
	if r := resttest.RunDailyPoints(t, e, later.AddDate(0, 1, 0), 1); r.TiersSettled != 0 {
		t.Errorf("no tier left to settle, but %d settled", r.TiersSettled)
	}
}
