package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// The redemption engine's guarantees under real parallelism: requests are
// released together and split across two server processes (two connection
// pools) on one PostgreSQL database. SQLite runs one writer at a time, so
// there is nothing to race there and these tests skip.

// redeemBody is a stacked redemption of the codes (in that order).
func redeemBody(codes ...string) map[string]any {
	items := make([]any, len(codes))
	for i, c := range codes {
		items[i] = map[string]any{"object": "voucher", "id": c}
	}
	return map[string]any{"redeemables": items, "order": map[string]any{"amount": 1000}}
}

// redeemedQuantity is GET /v1/vouchers/{code} → redemption.redeemed_quantity.
func redeemedQuantity(t *testing.T, e *resttest.Env, h resttest.Headers, code string) int {
	t.Helper()
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/"+code, nil, h), http.StatusOK)
	return int(num(v["redemption"].(map[string]any)["redeemed_quantity"]))
}

var off100 = map[string]any{"type": "AMOUNT", "amount_off": 100}

// TestConcurrentRedemptionsRespectQuantity: 20 redemptions at once of a
// voucher that can be redeemed 5 times: exactly 5 succeed, and the stored
// redemptions and counter agree.
func TestConcurrentRedemptionsRespectQuantity(t *testing.T) {
	e, app, servers := twoServers(t)
	v := discountCode(t, e, app, "Five", "FIVE", off100, 5)
	resps := burst(e, servers, app, 20, func(int) (string, any) { return "/v1/redemptions", redeemBody("FIVE") })
	wantOutcomes(t, "redemptions", resps, map[string]int{"200": 5, "400 quantity_exceeded": 15})
	if n := redeemedQuantity(t, e, app, "FIVE"); n != 5 {
		t.Errorf("redeemed_quantity %d, want 5", n)
	}
	children := e.DB.Client.Redemption.Query().Where(redemption.VoucherID(v["id"].(string)),
		redemption.ObjectEQ(redemption.ObjectRedemption), redemption.ParentIDNotNil())
	if n := children.Clone().Where(redemption.ResultEQ(redemption.ResultSUCCESS)).CountX(systemCtx()); n != 5 {
		t.Errorf("%d SUCCESS child redemptions stored, want 5", n)
	}
	if n := children.Clone().Where(redemption.ResultEQ(redemption.ResultFAILURE)).CountX(systemCtx()); n != 15 {
		t.Errorf("%d FAILURE child redemptions stored, want 15", n)
	}
}

// TestConcurrentGiftRedemptionsNeverOverdraw: 10 redemptions of 300
// credits at once from a card of 1000: 3 succeed, the balance ends at 100
// and every transaction records a non-negative balance.
func TestConcurrentGiftRedemptionsNeverOverdraw(t *testing.T) {
	e, app, servers := twoServers(t)
	card := giftCard(t, e, app, "Gift cards", "GIFT-1000", 1000)
	// Each request has its own customer: a shared one would serialize them
	// on its row before they reach the card.
	resps := burst(e, servers, app, 10, func(i int) (string, any) {
		return "/v1/redemptions", map[string]any{"customer": map[string]any{"source_id": fmt.Sprintf("buyer-%d", i)}, "order": map[string]any{"amount": 1000},
			"redeemables": []any{map[string]any{"object": "voucher", "id": "GIFT-1000", "gift": map[string]any{"credits": 300}}}}
	})
	wantOutcomes(t, "gift redemptions", resps, map[string]int{"200": 3, "400 gift_amount_exceeded": 7})
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-1000", nil, app), http.StatusOK)
	if b := num(v["gift"].(map[string]any)["balance"]); b != 100 {
		t.Errorf("gift balance %v, want 100", b)
	}
	txs := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(card["id"].(string)),
		vouchertransaction.TypeEQ(vouchertransaction.TypeCREDITS_REDEMPTION)).AllX(systemCtx())
	var balances []int64
	for _, tx := range txs {
		if tx.Amount != -300 || tx.Balance < 0 {
			t.Errorf("transaction amount %d balance %d, want -300 and a non-negative balance", tx.Amount, tx.Balance)
		}
		balances = append(balances, tx.Balance)
	}
	slices.Sort(balances)
	if !slices.Equal(balances, []int64{100, 400, 700}) {
		t.Errorf("CREDITS_REDEMPTION balances %v, want 700, 400 and last 100", balances)
	}
}

// TestConcurrentRollbacksRevertOnce: 2, then 8, rollbacks of the same
// stacked redemption at once: one reverts it, the others are told it is
// already rolled back; the unit comes back once and one rollback is stored.
func TestConcurrentRollbacksRevertOnce(t *testing.T) {
	e, app, servers := twoServers(t)
	for _, n := range []int{2, 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			code := fmt.Sprintf("ROLL-%d", n)
			discountCode(t, e, app, code, code, off100, 1)
			red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", redeemBody(code), app), http.StatusOK)
			parent := red["parent_redemption"].(map[string]any)["id"].(string)
			child := red["redemptions"].([]any)[0].(map[string]any)["id"].(string)
			resps := burst(e, servers, app, n, func(int) (string, any) { return "/v1/redemptions/" + parent + "/rollbacks", nil })
			wantOutcomes(t, "rollbacks", resps, map[string]int{"200": 1, "400 already_rolled_back": n - 1})
			if q := redeemedQuantity(t, e, app, code); q != 0 {
				t.Errorf("redeemed_quantity %d after rollback, want 0", q)
			}
			for what, id := range map[string]string{"parent": parent, "child": child} {
				n := e.DB.Client.Redemption.Query().Where(redemption.RolledBackID(id),
					redemption.ObjectEQ(redemption.ObjectRedemptionRollback)).CountX(systemCtx())
				if n != 1 {
					t.Errorf("%d rollback rows for the %s redemption, want 1", n, what)
				}
			}
		})
	}
}

// TestConcurrentStackedRedemptionsInOppositeOrder: stacked redemptions of
// two single-use vouchers, naming them A,B and B,A, race: no deadlock (no
// 500), exactly one request redeems both, and never one voucher each.
func TestConcurrentStackedRedemptionsInOppositeOrder(t *testing.T) {
	e, app, servers := twoServers(t)
	for round := range 10 {
		a, b := fmt.Sprintf("A-%02d", round), fmt.Sprintf("B-%02d", round)
		va := discountCode(t, e, app, a, a, off100, 1)
		vb := discountCode(t, e, app, b, b, off100, 1)
		// Requests 0 and 3 name A,B, 1 and 2 name B,A: each order on each server.
		resps := burst(e, servers, app, 4, func(i int) (string, any) {
			if (i%2)^(i/2%2) == 0 {
				return "/v1/redemptions", redeemBody(a, b)
			}
			return "/v1/redemptions", redeemBody(b, a)
		})
		wantOutcomes(t, fmt.Sprintf("round %d", round), resps, map[string]int{"200": 1, "400 quantity_exceeded": 3})
		for _, r := range resps {
			if r.Status != http.StatusOK {
				continue
			}
			var codes []string
			for _, c := range r.JSON(t)["redemptions"].([]any) {
				codes = append(codes, c.(map[string]any)["voucher"].(map[string]any)["code"].(string))
			}
			if slices.Sort(codes); !slices.Equal(codes, []string{a, b}) {
				t.Errorf("round %d: the winner redeemed %v, want both %s and %s", round, codes, a, b)
			}
		}
		parents := map[string]bool{}
		for _, v := range []map[string]any{va, vb} {
			if q := redeemedQuantity(t, e, app, v["code"].(string)); q != 1 {
				t.Errorf("round %d: %s redeemed_quantity %d, want 1", round, v["code"], q)
			}
			won := e.DB.Client.Redemption.Query().Where(redemption.VoucherID(v["id"].(string)),
				redemption.ResultEQ(redemption.ResultSUCCESS)).AllX(systemCtx())
			for _, r := range won {
				parents[deref(r.ParentID)] = true
			}
			if len(won) != 1 {
				t.Errorf("round %d: %d successful redemptions of %s, want 1", round, len(won), v["code"])
			}
		}
		if len(parents) != 1 {
			t.Errorf("round %d: A and B redeemed by %d different requests, want one (all or nothing)", round, len(parents))
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestConcurrentSessionLocks: 10 validations with a session LOCK at once
// on a voucher with 3 units hold exactly 3; the held units are not
// redeemable without their session; releasing one frees exactly one unit,
// and a session redeems the unit it holds.
func TestConcurrentSessionLocks(t *testing.T) {
	e, app, servers := twoServers(t)
	v := discountCode(t, e, app, "Held", "HELD", off100, 3)
	lock := map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "HELD"}},
		"order": map[string]any{"amount": 1000}, "session": map[string]any{"type": "LOCK"}}
	resps := burst(e, servers, app, 10, func(int) (string, any) { return "/v1/validations", lock })
	var keys []string
	for _, r := range resps {
		body := must(t, r, http.StatusOK)
		if body["valid"] == true {
			keys = append(keys, body["session"].(map[string]any)["key"].(string))
			continue
		}
		res := body["redeemables"].([]any)[0].(map[string]any)["result"].(map[string]any)
		if errObj, _ := res["error"].(map[string]any); errObj == nil || errObj["key"] != "quantity_exceeded" {
			t.Errorf("refused validation: %s, want quantity_exceeded", r.Body)
		}
	}
	if len(keys) != 3 {
		t.Fatalf("%d validations got a session lock, want 3", len(keys))
	}
	held := e.DB.Client.SessionLock.Query().Where(sessionlock.VoucherID(v["id"].(string)))
	if n := held.Clone().CountX(systemCtx()); n != 3 {
		t.Fatalf("%d session locks stored, want 3", n)
	}

	if r := e.DoJSON(http.MethodPost, "/v1/redemptions", redeemBody("HELD"), app); outcome(r) != "400 quantity_exceeded" {
		t.Fatalf("redemption while all units are held: %d %s, want 400 quantity_exceeded", r.Status, r.Body)
	}
	if r := e.Do(http.MethodDelete, "/v1/vouchers/HELD/sessions/"+keys[0], nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("releasing session: %d %s", r.Status, r.Body)
	}
	// One unit is free again: of 6 racing redemptions without a session, one gets it.
	resps = burst(e, servers, app, 6, func(int) (string, any) { return "/v1/redemptions", redeemBody("HELD") })
	wantOutcomes(t, "redemptions after release", resps, map[string]int{"200": 1, "400 quantity_exceeded": 5})
	// A session redeems the unit it holds, and its lock goes.
	withKey := redeemBody("HELD")
	withKey["session"] = map[string]any{"key": keys[1]}
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", withKey, app), http.StatusOK)
	if q := redeemedQuantity(t, e, app, "HELD"); q != 2 {
		t.Errorf("redeemed_quantity %d, want 2", q)
	}
	if left := held.Clone().Select(sessionlock.FieldKey).StringsX(systemCtx()); !slices.Equal(left, []string{keys[2]}) {
		t.Errorf("session locks left %v, want only %s", left, keys[2])
	}
}
