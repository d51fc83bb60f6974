package loyaltyv2_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/rest/resttest"
)

// spendingLimits is a card definition's spending_limits body: a global
// limit (nil: NO_LIMIT) and a per-transaction POINTS max (0: NO_LIMIT).
func spendingLimits(global map[string]any, perTx int) map[string]any {
	g := map[string]any{"type": "NO_LIMIT", "limits": []any{}}
	if global != nil {
		g = map[string]any{"type": "LIMITED", "limits": []any{global}}
	}
	tx := map[string]any{"type": "NO_LIMIT", "limits": []any{}}
	if perTx > 0 {
		tx = map[string]any{"type": "LIMITED", "limits": []any{map[string]any{"type": "POINTS", "max": perTx}}}
	}
	return map[string]any{"spending_limits": map[string]any{"global": g, "transactions": tx}}
}

// paymentOf is a payment answer's transaction.
func paymentOf(r map[string]any) map[string]any { return r["transaction"].(map[string]any) }

// TestV2OrderPaymentLimitsRefundsAndFilters: the card definition's
// per-transaction and global spending limits reject a payment that would
// pass them (no points move); canceling the order gives its approved
// payments' points back once when refunds.spent_points returns them; the
// list filters by id and created_at.
func TestV2OrderPaymentLimitsRefundsAndFilters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	order := payable(t, e, s, 1, 1000, 300, "o-lim")
	defPath := "/v2/loyalties/card-definitions/" + s.CardDef
	pay := func(limit int) map[string]any {
		t.Helper()
		body := map[string]any{"card_id": s.Card, "order": map[string]any{"id": order}}
		if limit > 0 {
			body["payment_limit"] = map[string]any{"type": "POINTS_LIMIT", "points_limit": map[string]any{"max": limit}}
		}
		return resttest.Must(t, e.DoJSON(http.MethodPost, s.PaymentsPath(), body, s.H), http.StatusAccepted)
	}

	// Per transaction: at most 200 points in one payment.
	resttest.MustOK(t, e, http.MethodPut, defPath, spendingLimits(nil, 200), s.H)
	if tx := paymentOf(pay(0)); tx["status"] != "REJECTED" || tx["card_transaction_id"] != nil ||
		resttest.MustJSON(tx["details"].(map[string]any)["rejection"]) != `{"details":{"limit":200,"type":"POINTS"},"reason":"TRANSACTION_SPENDING_LIMIT_EXCEEDED"}` {
		t.Errorf("payment over the transaction limit %v", tx)
	}
	if b := v2CardBalance(t, e, s); b != 1000 {
		t.Fatalf("balance %v after a rejected payment, want 1000", b)
	}
	first := paymentOf(pay(150))
	if first["status"] != "APPROVED" {
		t.Fatalf("payment under the limit %v", first)
	}

	// Global: at most 250 points spent in all (150 so far).
	resttest.MustOK(t, e, http.MethodPut, defPath, spendingLimits(map[string]any{"type": "SPENDING_BASED", "max": 250}, 0), s.H)
	if tx := paymentOf(pay(0)); tx["status"] != "REJECTED" ||
		resttest.MustJSON(tx["details"].(map[string]any)["rejection"]) != `{"details":{"limit":250,"spendings":300,"type":"SPENDING_BASED"},"reason":"GLOBAL_SPENDING_LIMIT_EXCEEDED"}` {
		t.Errorf("payment over the global limit %v", tx)
	}
	second := paymentOf(pay(100))
	if second["status"] != "APPROVED" {
		t.Fatalf("payment up to the global limit %v", second)
	}
	if b := v2CardBalance(t, e, s); b != 750 {
		t.Fatalf("balance %v, want 750", b)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, defPath, spendingLimits(map[string]any{"type": "SPENDING_BASED", "max": 0}, 0), s.H),
		http.StatusBadRequest, "invalid_payload")

	// The list's filters (4 rows: 2 rejected, 2 approved).
	list := func(query string) []any {
		t.Helper()
		return resttest.MustOK(t, e, http.MethodGet, s.PaymentsPath()+"?"+query, nil, s.H)["data"].([]any)
	}
	id1, id2 := first["id"].(string), second["id"].(string)
	if l := list("filters[id][conditions][$is]=" + id1); len(l) != 1 || l[0].(map[string]any)["id"] != id1 {
		t.Errorf("$is %v", l)
	}
	if l := list("filters[id][conditions][$not_in]=" + id1 + "," + id2); len(l) != 2 || l[0].(map[string]any)["status"] != "REJECTED" {
		t.Errorf("$not_in %v", l)
	}
	if l := list("filters[junction]=OR&filters[id][conditions][$is]=" + id1 + "&filters[id][conditions][$in]=" + id2); len(l) != 2 {
		t.Errorf("OR of two ids %v", l)
	}
	if l := list("filters[created_at][conditions][$less_than]=1&order=created_at"); len(l) != 4 || l[1].(map[string]any)["id"] != id1 {
		t.Errorf("created less than a day ago, oldest first %v", l)
	}
	if l := list("filters[created_at][conditions][$after]=" + url.QueryEscape("2999-01-01T00:00:00Z")); len(l) != 0 {
		t.Errorf("$after the future %v", l)
	}
	if l := list("filters[created_at][conditions][$is]=0&filters[id][conditions][$is]=" + id2); len(l) != 1 {
		t.Errorf("created today and id %v", l)
	}
	for _, bad := range []string{"filters[id][conditions][$is]=nope", "filters[status][conditions][$is]=APPROVED",
		"filters[created_at][conditions][$before]=yesterday", "filters[created_at][conditions][$more_than]=-1"} {
		resttest.WantErrorKey(t, e.Do(http.MethodGet, s.PaymentsPath()+"?"+bad, nil, s.H), http.StatusBadRequest, "invalid_query_params")
	}

	// Refunds: NONE by default, so canceling keeps the points spent...
	resttest.MustOK(t, e, http.MethodPut, defPath, spendingLimits(nil, 0), s.H)
	other := payable(t, e, s, 1, 0, 50, "o-kept")
	if tx := paymentOf(resttest.Must(t, e.DoJSON(http.MethodPost, s.PaymentsPath(), map[string]any{"card_id": s.Card,
		"order": map[string]any{"id": other}}, s.H), http.StatusAccepted)); tx["status"] != "APPROVED" {
		t.Fatalf("payment with no limit %v", tx)
	}
	resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+other, map[string]any{"status": "CANCELED"}, app), http.StatusOK)
	balance := v2CardBalance(t, e, s)
	if balance != 700 {
		t.Fatalf("balance %v after canceling with refunds NONE, want 700", balance)
	}

	// ...then RETURN_POINTS REFUND_ALL: canceling gives each approved
	// payment back once (cancel, pay, cancel again: no second return).
	resttest.MustOK(t, e, http.MethodPut, defPath, map[string]any{"refunds": map[string]any{
		"spent_points":  map[string]any{"type": "REFUNDABLE", "methods": []any{map[string]any{"type": "RETURN_POINTS", "mode": "REFUND_ALL"}}},
		"earned_points": map[string]any{"type": "NONE", "methods": []any{}}}}, s.H)
	for _, status := range []string{"CANCELED", "PAID", "CANCELED"} {
		resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+order, map[string]any{"status": status}, app), http.StatusOK)
	}
	if b := v2CardBalance(t, e, s); b != balance+250 {
		t.Errorf("balance %v after the refund, want %v", b, balance+250)
	}
	returned := e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_RETURNED)).AllX(resttest.SystemCtx())
	if len(returned) != 2 || returned[0].Amount+returned[1].Amount != 250 {
		t.Errorf("POINTS_RETURNED transactions %v", returned)
	}
	if n := e.DB.Client.OrderPayment.Query().Where(orderpayment.RefundTransactionIDNotNil()).CountX(resttest.SystemCtx()); n != 2 {
		t.Errorf("%d payments marked returned, want 2", n)
	}
}

// TestV2ConcurrentOrderPaymentsRespectSpendingLimit: 10 payments of 100
// points for 10 orders at once over two server processes, under a global
// limit of 300 points: exactly 3 are APPROVED and the card loses 300.
func TestV2ConcurrentOrderPaymentsRespectSpendingLimit(t *testing.T) {
	e, app, servers := resttest.TwoServers(t)
	s := resttest.NewLoyaltySetup(t, e)
	payable(t, e, s, 1, 1000, 100, "o-race-0")
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef,
		spendingLimits(map[string]any{"type": "SPENDING_BASED", "max": 300}, 0), s.H)
	orders := make([]string, 10)
	for i := range orders {
		orders[i] = resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": fmt.Sprintf("o-race-%d", i+1), "amount": 100}, app)["id"].(string)
	}
	resps := resttest.Burst(e, servers, s.H, len(orders), func(i int) (string, any) {
		return s.PaymentsPath(), map[string]any{"card_id": s.Card, "order": map[string]any{"id": orders[i]}}
	})
	approved := 0
	for _, r := range resps {
		var body struct {
			Transaction struct {
				Status  string
				Details struct{ Rejection *struct{ Reason string } }
			} `json:"transaction"`
		}
		if r.Status != http.StatusAccepted || json.Unmarshal(r.Body, &body) != nil {
			t.Fatalf("payment answered %d %s", r.Status, r.Body)
		}
		switch {
		case body.Transaction.Status == "APPROVED":
			approved++
		case body.Transaction.Details.Rejection == nil || body.Transaction.Details.Rejection.Reason != "GLOBAL_SPENDING_LIMIT_EXCEEDED":
			t.Errorf("rejection %s", r.Body)
		}
	}
	if approved != 3 {
		t.Errorf("%d approved payments, want 3", approved)
	}
	if b := v2CardBalance(t, e, s); b != 700 {
		t.Errorf("balance %v, want 700", b)
	}
}
