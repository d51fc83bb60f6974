package loyaltyv2_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// refundsBody is a card definition update setting its refunds.
func refundsBody(spent []string, earned []any) map[string]any {
	methods := []any{}
	for _, m := range spent {
		methods = append(methods, map[string]any{"type": "RETURN_POINTS", "mode": m})
	}
	sp := map[string]any{"type": "NONE", "methods": []any{}}
	if len(methods) > 0 {
		sp = map[string]any{"type": "REFUNDABLE", "methods": methods}
	}
	ep := map[string]any{"type": "NONE", "methods": []any{}}
	if len(earned) > 0 {
		ep = map[string]any{"type": "REFUNDABLE", "methods": earned}
	}
	return map[string]any{"refunds": map[string]any{"spent_points": sp, "earned_points": ep}}
}

// returnedPoints are the card's POINTS_RETURNED transactions' amounts.
func returnedPoints(t *testing.T, e *resttest.Env) []int64 {
	t.Helper()
	var out []int64
	for _, tx := range e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_RETURNED)).
		Order(cardtransaction.ByCreatedAt(), cardtransaction.ByID()).AllX(resttest.SystemCtx()) {
		out = append(out, tx.Amount)
	}
	return out
}

// TestV2OrderPartialRefundsReturnProportionalPoints: with REFUND_AMOUNT a
// write that lowers a paid order's total gives back the payment's share
// of the refunded amount — cumulatively, so the same refund sent again
// returns nothing and a total raised again takes nothing back —, the
// cancel returns the remainder (REFUND_ALL); with REFUND_ITEM the units
// removed from the lines count at their price when paid.
func TestV2OrderPartialRefundsReturnProportionalPoints(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	order := payable(t, e, s, 1, 1000, 1000, "o-part")
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	resttest.MustOK(t, e, http.MethodPut, defPath, refundsBody([]string{"REFUND_AMOUNT", "REFUND_ALL"}, nil), s.H)
	pay := func(orderID string, max int) {
		t.Helper()
		body := map[string]any{"card_id": s.Card, "order": map[string]any{"id": orderID},
			"payment_limit": map[string]any{"type": "POINTS_LIMIT", "points_limit": map[string]any{"max": max}}}
		if tx := paymentOf(resttest.Must(t, e.DoJSON(http.MethodPost, s.PaymentsPath(), body, s.H), http.StatusAccepted)); tx["status"] != "APPROVED" {
			t.Fatalf("payment %v", tx)
		}
	}
	update := func(orderID string, body map[string]any) {
		t.Helper()
		resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+orderID, body, app), http.StatusOK)
	}
	pay(order, 400) // 400 points pay 400 of the 1000
	for _, step := range []struct {
		amount  int
		balance float64
	}{
		{750, 700}, // 250 of 1000 refunded: 400 × 250/1000 = 100 back
		{750, 700}, // the same refund again: nothing
		{500, 800}, // 500 refunded in all: 200 back in all
		{900, 800}, // raised again: nothing taken back
	} {
		update(order, map[string]any{"amount": step.amount})
		if b := v2CardBalance(t, e, s); b != step.balance {
			t.Fatalf("order total %d: balance %v, want %v", step.amount, b, step.balance)
		}
	}
	update(order, map[string]any{"status": "CANCELED"}) // the remainder: 200
	if b := v2CardBalance(t, e, s); b != 1000 {
		t.Errorf("balance after the cancel %v, want 1000", b)
	}
	if got := returnedPoints(t, e); len(got) != 3 || got[0] != 100 || got[1] != 100 || got[2] != 200 {
		t.Errorf("POINTS_RETURNED %v, want [100 100 200]", got)
	}

	// REFUND_ITEM: 2 tees at 200 and a mug at 600; 500 points pay half.
	resttest.MustOK(t, e, http.MethodPut, defPath, refundsBody([]string{"REFUND_ITEM"}, nil), s.H)
	items := func(tees, mugs int) []any {
		out := []any{map[string]any{"source_id": "tee", "related_object": "product", "quantity": tees, "price": 200}}
		if mugs > 0 {
			out = append(out, map[string]any{"source_id": "mug", "related_object": "product", "quantity": mugs, "price": 600})
		}
		return out
	}
	shop := resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": "o-items", "items": items(2, 1)}, app)["id"].(string)
	pay(shop, 500)
	if b := v2CardBalance(t, e, s); b != 500 {
		t.Fatalf("balance after paying the items %v, want 500", b)
	}
	update(shop, map[string]any{"items": items(1, 1)}) // a tee (200 of 1000) back: 100 points
	if b := v2CardBalance(t, e, s); b != 600 {
		t.Errorf("balance after a tee refunded %v, want 600", b)
	}
	update(shop, map[string]any{"items": items(1, 0)}) // and the mug (800 of 1000 in all): 400 in all
	if b := v2CardBalance(t, e, s); b != 900 {
		t.Errorf("balance after the mug refunded %v, want 900", b)
	}
	update(shop, map[string]any{"status": "CANCELED"}) // no REFUND_ALL: the cancel returns nothing more
	if b := v2CardBalance(t, e, s); b != 900 {
		t.Errorf("balance after the cancel without REFUND_ALL %v, want 900", b)
	}
}

// TestV2ConcurrentPartialRefundsReturnOnce: 12 partial refunds of one
// paid order at once over two server processes (PostgreSQL), to three
// different totals, give back exactly the share of the lowest total, once.
func TestV2ConcurrentPartialRefundsReturnOnce(t *testing.T) {
	e, app, servers := resttest.TwoServers(t)
	s := resttest.NewLoyaltySetup(t, e)
	order := payable(t, e, s, 1, 1000, 1000, "o-race-refund")
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, refundsBody([]string{"REFUND_AMOUNT"}, nil), s.H)
	if tx := paymentOf(resttest.Must(t, e.DoJSON(http.MethodPost, s.PaymentsPath(), map[string]any{"card_id": s.Card,
		"order": map[string]any{"id": order}, "payment_limit": map[string]any{"type": "POINTS_LIMIT",
			"points_limit": map[string]any{"max": 600}}}, s.H), http.StatusAccepted)); tx["status"] != "APPROVED" {
		t.Fatalf("payment %v", tx)
	}
	amounts := []int{800, 600, 700}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 12 {
		body, _ := json.Marshal(map[string]any{"amount": amounts[i%3]})
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if r := e.DoAt(servers[i%2], http.MethodPut, "/v1/orders/"+order, body, app); r.Status != http.StatusOK {
				t.Errorf("refund: %d %s", r.Status, r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	// The last write sets the total; the lowest total reached (600: 400 of
	// 1000 refunded) gives 600 × 400/1000 = 240 back, once.
	if b := v2CardBalance(t, e, s); b != 400+240 {
		t.Errorf("balance %v, want %d", b, 400+240)
	}
	sum := int64(0)
	for _, p := range returnedPoints(t, e) {
		sum += p
	}
	if sum != 240 {
		t.Errorf("%d points returned, want 240", sum)
	}
}

// TestV2CanceledOrderRevokesEarnedPoints: with refunds.earned_points
// REVOKE_FROM_BALANCE the points a paid order earned leave the card when
// the order is canceled — REVOKE_TO_ZERO at most the balance —, once
// (paid and canceled again: nothing more); with REVOKE_FROM_PENDING its
// pending points are canceled instead of activated.
func TestV2CanceledOrderRevokesEarnedPoints(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	if r := e.Do(http.MethodPost, "/v2/loyalties/earning-rules", []byte(`{"name": "earn", "status": "ACTIVE",
		"trigger": {"event": "customer.order.paid"},
		"earnings": [{"effects": [{"points": {"value": 30, "card_definition_id": "`+s.CardDef+`"}}]}]}`), s.H); r.Status != http.StatusOK {
		t.Fatalf("rule: %d %s", r.Status, r.Body)
	}
	resttest.MustOK(t, e, http.MethodPut, defPath, refundsBody(nil, []any{
		map[string]any{"type": "REVOKE_FROM_BALANCE", "mode": "REVOKE_TO_ZERO"}}), s.H)
	paid := func(source string) string {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": source, "amount": 1000, "status": "PAID",
			"customer": map[string]any{"id": s.Cust}}, app)["id"].(string)
	}
	status := func(id, st string) {
		t.Helper()
		resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+id, map[string]any{"status": st}, app), http.StatusOK)
	}
	o1 := paid("earn-1")
	if b := v2CardBalance(t, e, s); b != 30 {
		t.Fatalf("balance after a paid order %v, want 30", b)
	}
	status(o1, "CANCELED")
	if b := v2CardBalance(t, e, s); b != 0 {
		t.Errorf("balance after the cancel %v, want 0", b)
	}
	status(o1, "PAID") // paid again: earns nothing (once per order) ...
	status(o1, "CANCELED")
	o2 := paid("earn-2")
	if b := v2CardBalance(t, e, s); b != 30 {
		t.Errorf("balance after o1 canceled twice and o2 paid %v, want 30 (o1 revoked once)", b)
	}
	// REVOKE_TO_ZERO: 20 points spent meanwhile, the cancel takes the 10 left.
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -20}, s.H)
	status(o2, "CANCELED")
	if b := v2CardBalance(t, e, s); b != 0 {
		t.Errorf("balance after revoking to zero %v, want 0", b)
	}
	removals := e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_REMOVAL),
		cardtransaction.SourceIDNotNil()).AllX(resttest.SystemCtx())
	if len(removals) != 2 || removals[0].Amount+removals[1].Amount != -40 {
		t.Errorf("revocations %v", removals)
	}

	// REVOKE_FROM_PENDING: the order's points wait 7 days; the cancel cancels them.
	resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"pending_points": map[string]any{"type": "PERIOD_BASED",
		"period_based": map[string]any{"period": map[string]any{"value": 7, "unit": "DAY"}}}}, s.H)
	resttest.MustOK(t, e, http.MethodPut, defPath, refundsBody(nil, []any{map[string]any{"type": "REVOKE_FROM_PENDING"}}), s.H)
	o3 := paid("earn-3")
	pending := s.CardPath() + "/pending-points"
	if l := resttest.MustOK(t, e, http.MethodGet, pending, nil, s.H)["data"].([]any); len(l) != 1 {
		t.Fatalf("pending entries after a paid order %v, want 1", l)
	}
	status(o3, "CANCELED")
	if l := resttest.MustOK(t, e, http.MethodGet, pending, nil, s.H)["data"].([]any); len(l) != 0 {
		t.Errorf("pending entries after the cancel %v, want none", l)
	}
}
