package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/rest/resttest"
)

func v2CardBalance(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup) float64 {
	t.Helper()
	m := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member, nil, s.H)
	return resttest.MemberCardAt(t, m, 0)["balance"].(map[string]any)["points"].(float64)
}

// TestV2RewardPurchaseSpendsOnceAndRefundsOnce: a purchase debits the
// card by the cost, one the points do not cover is 423 and writes
// nothing, a refund gives the points and the unit back once.
func TestV2RewardPurchaseSpendsOnceAndRefundsOnce(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	rw := resttest.Purchasable(t, e, s, 10, 2)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 25}, s.H)
	buy := func() resttest.Response {
		return e.DoJSON(http.MethodPost, s.PurchasesPath(), map[string]any{"reward_id": rw}, s.H)
	}
	first := resttest.Must(t, buy(), http.StatusAccepted)
	if tx := first["transaction"].(map[string]any); tx["type"] != "POINTS_SPENT_ON_REWARD" || tx["amount"] != float64(-10) || tx["balance"] != float64(15) {
		t.Errorf("purchase: %v", first)
	}
	resttest.Must(t, buy(), http.StatusAccepted)
	resttest.WantErrorKey(t, buy(), http.StatusLocked, "reward_out_of_stock")
	if b := v2CardBalance(t, e, s); b != 5 {
		t.Fatalf("balance %v, want 5", b)
	}
	list := resttest.MustOK(t, e, http.MethodGet, s.PurchasesPath()+"?order=created_at", nil, s.H)["data"].([]any)
	if len(list) != 2 {
		t.Fatalf("purchases %v", list)
	}
	pid := list[0].(map[string]any)["id"].(string)
	refund := "/v2/loyalties/programs/" + s.Program + "/rewards/purchases/" + pid + "/refund"
	if r := resttest.Must(t, e.Do(http.MethodPost, refund, nil, s.H), http.StatusAccepted); r["status"] != "APPROVED" ||
		r["transaction"].(map[string]any)["type"] != "REFUND" || r["transaction"].(map[string]any)["object"] != "reward_transaction" ||
		r["transaction"].(map[string]any)["details"].(map[string]any)["purchase"].(map[string]any)["reward_transaction"].(map[string]any)["id"] != pid {
		t.Errorf("refund %v", r)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, refund, nil, s.H), http.StatusConflict, "invalid_state")
	if b := v2CardBalance(t, e, s); b != 15 {
		t.Fatalf("balance %v after the refund, want 15", b)
	}
	resttest.Must(t, buy(), http.StatusAccepted) // the refunded unit is back in stock
	resttest.WantErrorKey(t, buy(), http.StatusLocked, "reward_out_of_stock")

	// Points not covering the cost: 423, no transaction, no stock taken.
	dear := resttest.Purchasable(t, e, s, 1000, 5)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, s.PurchasesPath(), map[string]any{"reward_id": dear}, s.H), http.StatusLocked, "insufficient_points")
	rewards := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/rewards", nil, s.H)["data"].([]any)
	for _, r := range rewards {
		if r := r.(map[string]any); r["reward_id"] == dear && r["redeemed"] != float64(0) {
			t.Errorf("refused purchase took stock: %v", r)
		}
	}
	if b := v2CardBalance(t, e, s); b != 5 {
		t.Errorf("balance %v after a refused purchase, want 5", b)
	}
	// Bad input writes nothing: a negative cost, a member of another project.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/programs/"+s.Program+"/rewards/"+dear, map[string]any{"costs": []any{
		map[string]any{"spending": []any{map[string]any{"points": -5, "card_definition_id": s.CardDef}}}}}, s.H), http.StatusBadRequest, "invalid_payload")
	other := resttest.V2(t, e, e.NewProject("other"))
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, s.PurchasesPath(), map[string]any{"reward_id": rw}, other), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/rewards/"+rw, nil, s.H), http.StatusBadRequest, "resource_in_use")
}

// TestV2ConcurrentRewardPurchasesSpendPointsOnce: 100 purchases at once of
// a 10-point reward from a card of 330 points, over two server processes:
// exactly 33 succeed, the balance ends at 0 and no transaction left it
// below zero, with one card activity and one webhook event per purchase.
func TestV2ConcurrentRewardPurchasesSpendPointsOnce(t *testing.T) {
	e, _, servers := resttest.TwoServers(t)
	mk := e.NewManagementKey()
	resttest.CreateHook(t, e, mk, "http://127.0.0.1:9/never", "voucher.loyalty_card.transaction.created")
	s := resttest.NewLoyaltySetup(t, e)
	rw := resttest.Purchasable(t, e, s, 10, 1000)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 330}, s.H)
	resps := resttest.Burst(e, servers, s.H, 100, func(int) (string, any) { return s.PurchasesPath(), map[string]any{"reward_id": rw} })
	resttest.WantOutcomes(t, "reward purchases", resps, map[string]int{"202 ": 33, "423 insufficient_points": 67})
	if b := v2CardBalance(t, e, s); b != 0 {
		t.Errorf("balance %v, want 0", b)
	}
	txs := e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_SPENT_ON_REWARD)).AllX(resttest.SystemCtx())
	if len(txs) != 33 {
		t.Errorf("%d POINTS_SPENT_ON_REWARD transactions, want 33", len(txs))
	}
	for _, tx := range txs {
		if tx.Balance < 0 {
			t.Errorf("a transaction left balance %d", tx.Balance)
		}
	}
	if n := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type("voucher.loyalty_card.transaction.created")).CountX(resttest.SystemCtx()); n != 33 {
		t.Errorf("%d webhook events, want 33", n)
	}
	acts := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/activities?limit=100", nil, s.H)["data"].([]any)
	bought := 0
	for _, a := range acts {
		if a.(map[string]any)["type"] == "vl.card.reward_purchased" {
			bought++
		}
	}
	if bought != 33 {
		t.Errorf("%d purchase activities, want 33", bought)
	}
	list := resttest.MustOK(t, e, http.MethodGet, s.PurchasesPath()+"?limit=100", nil, s.H)["data"].([]any)
	if len(list) != 33 {
		t.Errorf("%d reward transactions, want 33", len(list))
	}
}

// TestV2LoyaltyGapsThroughGraphQL: the same use cases answer GraphQL.
func TestV2LoyaltyGapsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	rw := resttest.Purchasable(t, e, s, 10, 5)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 15}, s.H)
	app := resttest.App(e.Project)
	got := e.GraphQL(app, `mutation($p: ID!, $m: ID!, $r: ID!) { purchaseReward(programID: $p, memberID: $m, input: {rewardID: $r}) {
		status purchase { id points } transaction { amount balance } } }`, map[string]any{"p": s.Program, "m": s.Member, "r": rw})
	if len(got.Errors) > 0 || resttest.MustJSON(got.Data["purchaseReward"].(map[string]any)["transaction"]) != `{"amount":-10,"balance":5}` {
		t.Fatalf("purchaseReward: %+v %v", got.Errors, got.Data)
	}
	ts := e.GraphQL(app, `mutation($d: ID!) { createTierStructure(input: {name: "L", type: "POINT_BALANCE", cardDefinitionID: $d}) { id status } }`,
		map[string]any{"d": s.CardDef})
	if len(ts.Errors) > 0 || ts.Data["createTierStructure"].(map[string]any)["status"] != "DRAFT" {
		t.Fatalf("createTierStructure: %+v %v", ts.Errors, ts.Data)
	}
	ms := e.GraphQL(app, `query($c: ID!) { customerMemberships(customerID: $c) { member { id } tiers { points } } }`, map[string]any{"c": s.Cust})
	if len(ms.Errors) > 0 || len(ms.Data["customerMemberships"].([]any)) != 1 {
		t.Fatalf("customerMemberships: %+v %v", ms.Errors, ms.Data)
	}
}

// TestV2MemberUpdateAndRewardsPreview: PUT merges member metadata (null
// clears it); examine/rewards shows what the points buy and writes
// nothing.
func TestV2MemberUpdateAndRewardsPreview(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	path := "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member
	resttest.MustOK(t, e, http.MethodPut, path, map[string]any{"metadata": map[string]any{"a": 1}}, s.H)
	if m := resttest.MustOK(t, e, http.MethodPut, path, map[string]any{"metadata": map[string]any{"b": 2}}, s.H); resttest.MustJSON(m["metadata"]) != `{"a":1,"b":2}` {
		t.Errorf("merged metadata %v", m["metadata"])
	}
	if m := resttest.MustOK(t, e, http.MethodPut, path, map[string]any{"metadata": nil}, s.H); resttest.MustJSON(m["metadata"]) != `{}` {
		t.Errorf("cleared metadata %v", m["metadata"])
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{}, s.H), http.StatusBadRequest, "invalid_payload")

	cheap := resttest.Purchasable(t, e, s, 10, 5)
	dear := resttest.Purchasable(t, e, s, 100, 5)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 50}, s.H)
	x := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/examine/rewards", map[string]any{
		"customer_identification": map[string]any{"type": "customer_id", "customer_id": s.Cust}}, s.H)
	est := x["memberships"].([]any)[0].(map[string]any)["cards"].([]any)[0].(map[string]any)["rewards"].([]any)
	got := map[string]string{}
	for _, r := range est {
		r := r.(map[string]any)
		id := r["reward"].(map[string]any)["id"].(string)
		got[id] = r["status"].(string)
		if id == dear && resttest.MustJSON(r["unavailability_reasons"]) != `[{"details":{"available":50,"missing":50,"required":100},"object":"reward_unavailability_reason","reason":"insufficient_balance"}]` {
			t.Errorf("unavailability %s", resttest.MustJSON(r))
		}
		if id == cheap && (r["unavailability_reasons"] != nil || resttest.MustJSON(r["cost"]) != `{"object":"reward_cost","points":10}`) {
			t.Errorf("available estimation %s", resttest.MustJSON(r))
		}
	}
	if len(got) != 2 || got[cheap] != "AVAILABLE" || got[dear] != "UNAVAILABLE" {
		t.Errorf("preview %s", resttest.MustJSON(x))
	}
	if b := v2CardBalance(t, e, s); b != 50 {
		t.Errorf("balance %v after a preview, want 50", b)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/examine/rewards", map[string]any{
		"customer_identification": map[string]any{"type": "member_id", "member_id": "lmbr_unknown"}}, s.H), http.StatusNotFound, "not_found")
}
