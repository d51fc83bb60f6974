package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// programRewardRedeemed is how many units of reward rw the setup's
// program has given.
func programRewardRedeemed(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup, rw string) float64 {
	t.Helper()
	for _, r := range resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/rewards", nil, s.H)["data"].([]any) {
		if r := r.(map[string]any); r["reward_id"] == rw {
			return r["redeemed"].(float64)
		}
	}
	t.Fatalf("reward %s not assigned", rw)
	return 0
}

// TestV2RewardPurchaseSpendingLimits: the card definition's spending
// limits refuse a reward purchase that would pass them with a 423 naming
// the limit; nothing is spent and no stock is taken; a refunded purchase
// no longer counts.
func TestV2RewardPurchaseSpendingLimits(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	rw := resttest.Purchasable(t, e, s, 100, 10)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 1000}, s.H)
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	buy := func() resttest.Response {
		return e.DoJSON(http.MethodPost, s.PurchasesPath(), map[string]any{"reward_id": rw}, s.H)
	}

	resttest.MustOK(t, e, http.MethodPut, defPath, spendingLimits(map[string]any{"type": "SPENDING_BASED", "max": 250}, 0), s.H)
	first := resttest.Must(t, buy(), http.StatusAccepted)
	resttest.Must(t, buy(), http.StatusAccepted)
	body := resttest.WantErrorKey(t, buy(), http.StatusLocked, "global_spending_limit_exceeded")
	if body["details"] != "Purchase of 100 points passes the card's SPENDING_BASED spending limit of 250 points (spendings with it: 300)" {
		t.Errorf("details %v", body["details"])
	}
	if b := v2CardBalance(t, e, s); b != 800 {
		t.Fatalf("balance %v, want 800", b)
	}
	if n := programRewardRedeemed(t, e, s, rw); n != 2 {
		t.Fatalf("redeemed %v after a refused purchase, want 2", n)
	}

	resttest.MustOK(t, e, http.MethodPut, defPath, spendingLimits(nil, 50), s.H)
	resttest.WantErrorKey(t, buy(), http.StatusLocked, "transaction_spending_limit_exceeded")

	// A refund gives its spending back: 100 spent, one more fits under 250.
	pid := first["transaction"].(map[string]any)["source_id"]
	list := resttest.MustOK(t, e, http.MethodGet, s.PurchasesPath()+"?order=created_at", nil, s.H)["data"].([]any)
	refundID := list[0].(map[string]any)["id"].(string)
	resttest.Must(t, e.Do(http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/rewards/purchases/"+refundID+"/refund", nil, s.H), http.StatusAccepted)
	resttest.MustOK(t, e, http.MethodPut, defPath, spendingLimits(map[string]any{"type": "SPENDING_BASED", "max": 250}, 0), s.H)
	resttest.Must(t, buy(), http.StatusAccepted)
	resttest.WantErrorKey(t, buy(), http.StatusLocked, "global_spending_limit_exceeded")
	if b := v2CardBalance(t, e, s); b != 800 {
		t.Errorf("balance %v, want 800 (source %v)", b, pid)
	}
	if n := programRewardRedeemed(t, e, s, rw); n != 2 {
		t.Errorf("redeemed %v, want 2", n)
	}
}

// TestV2ConcurrentRewardPurchasesRespectSpendingLimit: 10 purchases of 100
// points at once over two server processes under a 300-point limit:
// exactly 3 succeed, the card loses 300 and the stock 3 units.
func TestV2ConcurrentRewardPurchasesRespectSpendingLimit(t *testing.T) {
	e, _, servers := resttest.TwoServers(t)
	s := resttest.NewLoyaltySetup(t, e)
	rw := resttest.Purchasable(t, e, s, 100, 100)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 1000}, s.H)
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef,
		spendingLimits(map[string]any{"type": "SPENDING_BASED", "max": 300}, 0), s.H)
	resps := resttest.Burst(e, servers, s.H, 10, func(int) (string, any) {
		return s.PurchasesPath(), map[string]any{"reward_id": rw}
	})
	ok := 0
	for _, r := range resps {
		switch r.Status {
		case http.StatusAccepted:
			ok++
		case http.StatusLocked:
		default:
			t.Errorf("purchase answered %d %s", r.Status, r.Body)
		}
	}
	if ok != 3 {
		t.Errorf("%d purchases succeeded, want 3", ok)
	}
	if b := v2CardBalance(t, e, s); b != 700 {
		t.Errorf("balance %v, want 700", b)
	}
	if n := programRewardRedeemed(t, e, s, rw); n != 3 {
		t.Errorf("redeemed %v, want 3", n)
	}
}

// earningLimits is a card definition's earning_limits body.
func earningLimits(global, perTx map[string]any) map[string]any {
	g := map[string]any{"type": "NO_LIMIT", "limits": []any{}}
	if global != nil {
		g = map[string]any{"type": "LIMITED", "limits": []any{global}}
	}
	tx := map[string]any{"type": "NO_LIMIT", "limits": []any{}}
	if perTx != nil {
		tx = map[string]any{"type": "LIMITED", "limits": []any{perTx}}
	}
	return map[string]any{"earning_limits": map[string]any{"global": g, "transactions": tx}}
}

// visitRule makes an ACTIVE earning rule giving points on the custom
// event name to the setup's card definition; send sends that event.
func visitRule(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup, name string, points int) (send func()) {
	t.Helper()
	app := resttest.App(e.Project)
	ev := resttest.DefineEvent(t, e, app, name, nil)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": name, "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": ev["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": points, "card_definition_id": s.CardDef}}}}}}, s.H)
	return func() {
		t.Helper()
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": name, "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
}

// TestV2EarningLimitsCapEarnedPoints: a card definition's earning limits
// cap what earning rules credit — per transaction, per day, by the
// balance — and an order below the minimum spend earns nothing; manual
// additions are not capped.
func TestV2EarningLimitsCapEarnedPoints(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	visit := visitRule(t, e, s, "visit", 40)
	earned := func() int {
		t.Helper()
		return e.DB.Client.CardTransaction.Query().Where(cardtransaction.CardID(s.Card), cardtransaction.EarningRuleIDNotNil()).CountX(resttest.SystemCtx())
	}

	resttest.MustOK(t, e, http.MethodPut, defPath, earningLimits(nil, map[string]any{"type": "POINTS", "max": 30}), s.H)
	visit()
	if b := v2CardBalance(t, e, s); b != 30 {
		t.Fatalf("balance %v after a capped transaction, want 30", b)
	}
	resttest.MustOK(t, e, http.MethodPut, defPath, earningLimits(map[string]any{"type": "TIME_BASED",
		"period": map[string]any{"type": "CURRENT_PERIOD", "current_period": map[string]any{"unit": "DAY"}}, "points": map[string]any{"max": 50}}, nil), s.H)
	visit()
	visit()
	if b, n := v2CardBalance(t, e, s), earned(); b != 50 || n != 2 {
		t.Fatalf("balance %v after the day's cap (%d earnings), want 50 and 2", b, n)
	}
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 100}, s.H) // not an earning
	resttest.MustOK(t, e, http.MethodPut, defPath, earningLimits(map[string]any{"type": "BALANCE_BASED", "max": 170}, nil), s.H)
	visit()
	if b := v2CardBalance(t, e, s); b != 170 {
		t.Fatalf("balance %v under the balance cap, want 170", b)
	}
	visit()
	if b, n := v2CardBalance(t, e, s), earned(); b != 170 || n != 3 {
		t.Fatalf("balance %v (%d earnings) at the balance cap, want 170 and 3", b, n)
	}

	// SPENDING: an order below min_amount earns nothing.
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H) // 5 points per order
	resttest.MustOK(t, e, http.MethodPut, defPath, earningLimits(nil, map[string]any{"type": "SPENDING", "min_amount": 1000}), s.H)
	order := func(source string, amount int) {
		t.Helper()
		resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": source, "amount": amount, "status": "PAID",
			"customer": map[string]any{"source_id": "member-1"}}, app)
	}
	order("small", 999)
	if b := v2CardBalance(t, e, s); b != 170 {
		t.Fatalf("balance %v after an order below the minimum, want 170", b)
	}
	order("big", 1000)
	if b := v2CardBalance(t, e, s); b != 175 {
		t.Fatalf("balance %v after an order at the minimum, want 175", b)
	}
}

// TestV2ConcurrentEarningsRespectTheDailyCap: 12 events of 10 points at
// once over two server processes under a 55-point daily cap: the card
// earns exactly 55.
func TestV2ConcurrentEarningsRespectTheDailyCap(t *testing.T) {
	e, app, servers := resttest.TwoServers(t)
	s := resttest.NewLoyaltySetup(t, e)
	visitRule(t, e, s, "visit", 10)
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, earningLimits(map[string]any{"type": "TIME_BASED",
		"period": map[string]any{"type": "CURRENT_PERIOD", "current_period": map[string]any{"unit": "DAY"}}, "points": map[string]any{"max": 55}}, nil), s.H)
	for _, r := range resttest.Burst(e, servers, app, 12, func(int) (string, any) {
		return "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}
	}) {
		if r.Status != http.StatusOK {
			t.Errorf("event answered %d %s", r.Status, r.Body)
		}
	}
	if b := v2CardBalance(t, e, s); b != 55 {
		t.Errorf("balance %v, want 55", b)
	}
	if c := e.DB.Client.Card.Query().Where(card.ID(s.Card)).OnlyX(resttest.SystemCtx()); c.Balance != 55 {
		t.Errorf("stored balance %d", c.Balance)
	}
}

// TestV2BalanceSettingsAllowNegative: with allow_negative an admin debit
// may take the balance below zero (only with points that never expire);
// purchases still need the points; without it the debit is refused.
func TestV2BalanceSettingsAllowNegative(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	rolling := map[string]any{"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 3, "unit": "MONTH"}}}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, defPath, map[string]any{"balance_settings": map[string]any{"allow_negative": true},
		"points_expiration": rolling}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -20}, s.H), http.StatusBadRequest, "insufficient_points")

	def := resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"balance_settings": map[string]any{"allow_negative": true}}, s.H)
	if def["balance_settings"].(map[string]any)["allow_negative"] != true {
		t.Fatalf("balance_settings %v", def["balance_settings"])
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, defPath, map[string]any{"points_expiration": rolling}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -20}, s.H)
	if b := v2CardBalance(t, e, s); b != -20 {
		t.Fatalf("balance %v, want -20", b)
	}
	rw := resttest.Purchasable(t, e, s, 1, 5)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, s.PurchasesPath(), map[string]any{"reward_id": rw}, s.H), http.StatusLocked, "insufficient_points")
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 25}, s.H)
	resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"balance_settings": map[string]any{"allow_negative": false}}, s.H)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -6}, s.H), http.StatusBadRequest, "insufficient_points")
	if b := v2CardBalance(t, e, s); b != 5 {
		t.Errorf("balance %v, want 5", b)
	}
}
