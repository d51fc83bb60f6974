package loyaltyv1_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/rest/resttest"
)

func redeemPath(campaign, code string) string {
	if campaign == "" {
		return "/v1/loyalties/members/" + url.PathEscape(code) + "/redemption"
	}
	return "/v1/loyalties/" + url.PathEscape(campaign) + "/members/" + url.PathEscape(code) + "/redemption"
}

func redeemBodyFor(rewardID string) map[string]any {
	return map[string]any{"reward": map[string]any{"id": rewardID}}
}

func TestLoyaltySideRewardAssignments(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 100)
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	coupon := f.CreateReward(t, map[string]any{"name": "Coupon", "parameters": map[string]any{"campaign": map[string]any{"id": f.Coupons}}})["id"].(string)
	base := "/v1/loyalties/" + f.Points + "/rewards"

	created := e.DoJSON(http.MethodPost, base, []any{
		map[string]any{"reward": mug, "parameters": map[string]any{"loyalty": map[string]any{"points": 80}}},
		map[string]any{"reward": coupon, "parameters": map[string]any{"loyalty": map[string]any{"points": 150}}},
	}, f.App)
	if created.Status != http.StatusOK {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	var arr []map[string]any
	if err := json.Unmarshal(created.Body, &arr); err != nil {
		t.Fatal(err)
	}
	if len(arr) != 2 || arr[0]["reward_id"] != mug || arr[1]["related_object_id"] != f.Points {
		t.Fatalf("created = %s", created.Body)
	}
	mugA := arr[0]["id"].(string)
	// All or none: the second item is a duplicate, so the first is not kept.
	other := f.CreateReward(t, map[string]any{"name": "Other", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, []any{
		map[string]any{"reward": other, "parameters": map[string]any{"loyalty": map[string]any{"points": 5}}},
		map[string]any{"reward": mug, "parameters": map[string]any{"loyalty": map[string]any{"points": 5}}},
	}, f.App), http.StatusConflict, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"reward": other}, f.App), http.StatusBadRequest, "invalid_payload")
	for _, path := range []string{base, "/v1/loyalties/Points/reward-assignments"} {
		if l := resttest.Must(t, e.Do(http.MethodGet, path, nil, f.App), http.StatusOK); num(l["total"]) != 2 {
			t.Fatalf("%s: %v", path, l)
		}
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/loyalties/Points/reward-assignments?assignmentId="+mugA, nil, f.App), http.StatusOK); num(l["total"]) != 1 {
		t.Fatalf("filtered: %v", l)
	}
	for _, path := range []string{base + "/" + mugA, "/v1/loyalties/" + f.Points + "/reward-assignments/" + mugA} {
		if a := resttest.Must(t, e.Do(http.MethodGet, path, nil, f.App), http.StatusOK); a["id"] != mugA {
			t.Fatalf("%s: %v", path, a)
		}
	}
	if r := resttest.Must(t, e.Do(http.MethodGet, "/v1/loyalties/"+f.Points+"/reward-assignments/"+mugA+"/reward", nil, f.App), http.StatusOK); r["id"] != mug {
		t.Fatalf("reward of assignment: %v", r)
	}
	// Another campaign's view does not show it.
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/loyalties/"+f.Other+"/rewards/"+mugA, nil, f.App), "reward_assignment", mugA)
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/loyalties/"+f.Coupons+"/rewards", nil, f.App), "campaign", f.Coupons)
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+mugA, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": 90}}}, f.App), http.StatusOK)
	if num(upd["parameters"].(map[string]any)["loyalty"].(map[string]any)["points"]) != 90 {
		t.Fatalf("updated = %v", upd)
	}

	// The member's rewards: all of them, or those 100 points cover.
	card := resttest.MemberCard(t, e, f.App, "Points", "alice")
	all := resttest.Must(t, e.Do(http.MethodGet, "/v1/loyalties/members/"+card+"/rewards", nil, f.App), http.StatusOK)
	affordable := resttest.Must(t, e.Do(http.MethodGet, "/v1/loyalties/members/"+card+"/rewards?affordable_only=true", nil, f.App), http.StatusOK)
	if num(all["total"]) != 2 || num(affordable["total"]) != 1 {
		t.Fatalf("member rewards: %v / %v", all, affordable)
	}
	item := affordable["data"].([]any)[0].(map[string]any)
	if item["object"] != "loyalty_reward" || item["reward"].(map[string]any)["id"] != mug || item["assignment"].(map[string]any)["id"] != mugA {
		t.Fatalf("affordable = %v", item)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/loyalties/members/NOPE/rewards", nil, f.App), "voucher", "NOPE")

	resttest.MustNoContent(t, e.Do(http.MethodDelete, base+"/"+mugA, nil, f.App))
	resttest.WantNotFound(t, e.Do(http.MethodGet, base+"/"+mugA, nil, f.App), "reward_assignment", mugA)
}

func TestRedeemingRewardsWithPoints(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	hook := resttest.CreateHook(t, e, mk, "http://127.0.0.1:9/never", "redemption.succeeded")
	f := resttest.NewRewardFixture(t, e, 1000)
	card := resttest.MemberCard(t, e, f.App, "Points", "alice")
	reward := func(name string, params map[string]any, stock any, points int) string {
		body := map[string]any{"name": name, "parameters": params}
		if stock != nil {
			body["stock"] = stock
		}
		id := f.CreateReward(t, body)["id"].(string)
		f.Assign(t, id, f.Points, points)
		return id
	}
	coupon := reward("Coupon", map[string]any{"campaign": map[string]any{"id": f.Coupons}}, nil, 100)
	gift := reward("Credits", map[string]any{"campaign": map[string]any{"id": f.Gifts, "balance": 2500}}, nil, 200)
	points := reward("Points", map[string]any{"campaign": map[string]any{"id": f.Other, "balance": 40}}, nil, 50)
	mug := reward("Mug", map[string]any{"product": map[string]any{"id": f.Product}}, 1, 300)

	// A coupon: published to the card's holder.
	red := resttest.Must(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor(coupon), f.App), http.StatusOK)
	rw := red["reward"].(map[string]any)
	issued := rw["voucher"].(map[string]any)
	if red["object"] != "redemption" || red["result"] != "SUCCESS" || num(red["amount"]) != 100 ||
		num(red["loyalty_card"].(map[string]any)["points"]) != 100 || red["related_object_type"] != "voucher" ||
		rw["id"] != coupon || rw["type"] != "CAMPAIGN" || rw["assignment_id"] == nil || issued["campaign_id"] != f.Coupons {
		t.Fatalf("coupon redemption = %s", resttest.MustJSON(red))
	}
	if v := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/"+issued["code"].(string), nil, f.App), http.StatusOK); v["holder_id"] != red["customer_id"] {
		t.Fatalf("the coupon is not the customer's: %v vs %v", v["holder_id"], red["customer_id"])
	}
	if b := resttest.CardBalance(t, e, f.App, card); b != 900 {
		t.Fatalf("balance %v after 100 points, want 900", b)
	}
	// Gift credits: a gift card published and loaded.
	red = resttest.Must(t, e.DoJSON(http.MethodPost, redeemPath("", card), redeemBodyFor(gift), f.App), http.StatusOK)
	giftCode := red["reward"].(map[string]any)["voucher"].(map[string]any)["code"].(string)
	gv := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/"+giftCode, nil, f.App), http.StatusOK)
	if num(gv["gift"].(map[string]any)["balance"]) != 2500 {
		t.Fatalf("gift card = %v", gv["gift"])
	}
	// Points on the customer's card of another loyalty campaign.
	red = resttest.Must(t, e.DoJSON(http.MethodPost, redeemPath(f.Points, card), redeemBodyFor(points), f.App), http.StatusOK)
	otherCard := red["reward"].(map[string]any)["voucher"].(map[string]any)["code"].(string)
	if b := resttest.CardBalance(t, e, f.App, otherCard); b != 40 {
		t.Fatalf("other card balance %v, want 40", b)
	}
	// A product: one unit of its stock of one.
	red = resttest.Must(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor(mug), f.App), http.StatusOK)
	if p := red["reward"].(map[string]any)["product"].(map[string]any); p["id"] != f.Product {
		t.Fatalf("material redemption = %s", resttest.MustJSON(red))
	}
	mugRedemption := red["id"].(string)
	if b := resttest.CardBalance(t, e, f.App, card); b != 350 {
		t.Fatalf("balance %v after 650 points, want 350", b)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor(mug), f.App), http.StatusBadRequest, "reward_out_of_stock")

	// Refusals write nothing.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor("rew_nope"), f.App), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), map[string]any{}, f.App), http.StatusBadRequest, "missing_reward")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", "NOPE"), redeemBodyFor(coupon), f.App), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath(f.Other, card), redeemBodyFor(coupon), f.App), http.StatusNotFound, "not_found")
	unassigned := f.CreateReward(t, map[string]any{"name": "Unassigned", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor(unassigned), f.App), http.StatusBadRequest, "invalid_reward")
	f.Assign(t, unassigned, f.Points, 351)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor(unassigned), f.App), http.StatusBadRequest, "loyalty_card_points_exceeded")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), map[string]any{"reward": map[string]any{"id": coupon, "points": -3}}, f.App),
		http.StatusBadRequest, "invalid_payload")
	if b := resttest.CardBalance(t, e, f.App, card); b != 350 {
		t.Fatalf("balance %v after refusals, want 350", b)
	}
	v := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/"+card, nil, f.App), http.StatusOK)
	if n := num(v["redemption"].(map[string]any)["redeemed_quantity"]); n != 4 {
		t.Fatalf("redeemed_quantity %v, want 4", n)
	}
	txs := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(v["id"].(string)),
		vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_REDEMPTION)).AllX(resttest.SystemCtx())
	if len(txs) != 4 {
		t.Fatalf("%d POINTS_REDEMPTION transactions, want 4", len(txs))
	}
	if n := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type("redemption.succeeded")).CountX(resttest.SystemCtx()); n != 4 {
		t.Fatalf("%d redemption.succeeded events, want 4", n)
	}
	_ = hook

	// The rollback gives the points and the unit back.
	resttest.Must(t, e.Do(http.MethodPost, "/v1/redemptions/"+mugRedemption+"/rollback", nil, f.App), http.StatusOK)
	if b := resttest.CardBalance(t, e, f.App, card); b != 650 {
		t.Fatalf("balance %v after the rollback, want 650", b)
	}
	if r := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards/"+mug, nil, f.App), http.StatusOK); num(r["redeemed"]) != 0 {
		t.Fatalf("stock not returned: %v", r)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, redeemPath("Points", card), redeemBodyFor(mug), f.App), http.StatusOK)

	// /v1/redemptions takes a v1 reward too: the price is the assignment's.
	st := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"customer": map[string]any{"source_id": "alice"},
		"redeemables": []any{map[string]any{"object": "voucher", "id": card,
			"reward": map[string]any{"id": coupon}}}}, f.App), http.StatusOK)
	if b := resttest.CardBalance(t, e, f.App, card); b != 250 {
		t.Fatalf("balance %v after a stacked redemption of 100, want 250: %s", b, resttest.MustJSON(st))
	}
}

func TestRedeemRewardThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 100)
	card := resttest.MemberCard(t, e, f.App, "Points", "bob")
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	f.Assign(t, mug, f.Points, 30)
	got := e.GraphQL(f.App, `mutation($m: ID!, $r: ID!) { redeemV1Reward(member: $m, input: {reward: {id: $r}}) { id amount reward } }`,
		map[string]any{"m": card, "r": mug})
	if len(got.Errors) > 0 || num(got.Data["redeemV1Reward"].(map[string]any)["amount"]) != 30 {
		t.Fatalf("redeemV1Reward: %+v %v", got.Errors, got.Data)
	}
	if b := resttest.CardBalance(t, e, f.App, card); b != 70 {
		t.Fatalf("balance %v, want 70", b)
	}
	list := e.GraphQL(f.App, `query($m: ID!) { v1MemberRewards(member: $m, affordableOnly: true) { total } }`, map[string]any{"m": card})
	if len(list.Errors) > 0 || list.Data["v1MemberRewards"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("v1MemberRewards: %+v %v", list.Errors, list.Data)
	}
}

// TestConcurrentRewardRedemptionsSpendPointsOnce: 100 redemptions at once
// of a 10-point reward from a card of 330 points, over two server
// processes: exactly 33 succeed, the balance ends at 0 and never went
// below it, with one transaction and one webhook event per success.
func TestConcurrentRewardRedemptionsSpendPointsOnce(t *testing.T) {
	e, app, servers := resttest.TwoServers(t)
	mk := e.NewManagementKey()
	resttest.CreateHook(t, e, mk, "http://127.0.0.1:9/never", "redemption.succeeded")
	f := resttest.NewRewardFixture(t, e, 330)
	card := resttest.MemberCard(t, e, app, "Points", "racer")
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	f.Assign(t, mug, f.Points, 10)
	resps := resttest.Burst(e, servers, app, 100, func(int) (string, any) { return redeemPath("Points", card), redeemBodyFor(mug) })
	resttest.WantOutcomes(t, "reward redemptions", resps, map[string]int{"200": 33, "400 loyalty_card_points_exceeded": 67})
	if b := resttest.CardBalance(t, e, app, card); b != 0 {
		t.Errorf("balance %v, want 0", b)
	}
	txs := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_REDEMPTION)).AllX(resttest.SystemCtx())
	if len(txs) != 33 {
		t.Errorf("%d POINTS_REDEMPTION transactions, want 33", len(txs))
	}
	for _, tx := range txs {
		if tx.Balance < 0 {
			t.Errorf("a transaction left balance %d", tx.Balance)
		}
	}
	if n := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type("redemption.succeeded")).CountX(resttest.SystemCtx()); n != 33 {
		t.Errorf("%d redemption.succeeded events, want 33", n)
	}
	acts := resttest.Must(t, e.Do(http.MethodGet, "/v1/customers/racer/activities?limit=100", nil, app), http.StatusOK)
	redeemed := 0
	for _, a := range acts["data"].([]any) {
		if a.(map[string]any)["type"] == "customer.redemption.succeeded" {
			redeemed++
		}
	}
	if redeemed != 33 {
		t.Errorf("%d customer.redemption.succeeded activities, want 33", redeemed)
	}
	if r := e.DB.Client.V1Reward.Query().Where(v1reward.ID(mug)).OnlyX(resttest.SystemCtx()); r.Redeemed != 33 {
		t.Errorf("reward redeemed %d, want 33", r.Redeemed)
	}
}

// TestConcurrentMaterialRewardKeepsItsStock: 20 members redeem a MATERIAL
// reward with stock 5 at once: exactly 5 get it, and only they pay.
func TestConcurrentMaterialRewardKeepsItsStock(t *testing.T) {
	e, app, servers := resttest.TwoServers(t)
	f := resttest.NewRewardFixture(t, e, 100)
	cards := make([]string, 20)
	for i := range cards {
		cards[i] = resttest.MemberCard(t, e, app, "Points", fmt.Sprintf("member-%d", i))
	}
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "stock": 5, "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	f.Assign(t, mug, f.Points, 60)
	resps := resttest.Burst(e, servers, app, 20, func(i int) (string, any) { return redeemPath("Points", cards[i]), redeemBodyFor(mug) })
	resttest.WantOutcomes(t, "material redemptions", resps, map[string]int{"200": 5, "400 reward_out_of_stock": 15})
	if r := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards/"+mug, nil, app), http.StatusOK); num(r["redeemed"]) != 5 || num(r["stock"]) != 5 {
		t.Errorf("reward after the race: %v", r)
	}
	paid := 0
	for _, c := range cards {
		switch b := resttest.CardBalance(t, e, app, c); b {
		case 40:
			paid++
		case 100:
		default:
			t.Errorf("card %s balance %v", c, b)
		}
	}
	if paid != 5 {
		t.Errorf("%d cards paid, want 5", paid)
	}
}
