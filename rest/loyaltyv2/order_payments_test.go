package loyaltyv2_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/rest/resttest"
)

// payable enables paying with points on the setup's card definition at
// formula (amount per point), adds points to the card and creates an
// order of amount; it returns the order's id.
func payable(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup, formula any, points, amount int, source string) string {
	t.Helper()
	def := resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, map[string]any{
		"pay_with_points": map[string]any{"type": "EXCHANGE_RATIO", "exchange_ratio": map[string]any{"formula": formula}}}, s.H)
	if pw := def["pay_with_points"].(map[string]any); pw["type"] != "EXCHANGE_RATIO" {
		t.Fatalf("pay_with_points %v", pw)
	}
	if points > 0 {
		resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": points}, s.H)
	}
	return resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": source, "amount": amount},
		resttest.App(e.Project))["id"].(string)
}

func orderPaymentCount(t *testing.T, e *resttest.Env) int {
	t.Helper()
	return e.DB.Client.OrderPayment.Query().CountX(resttest.SystemCtx())
}

// TestV2OrderPaymentsPayAnOrderOnce: a payment spends the card's points on
// the order at the exchange ratio, capped by the limit and by what the
// order still owes; once the order is paid a further payment is REJECTED
// and moves no points; a dry run and every refusal write nothing; the
// list pages the member's transactions.
func TestV2OrderPaymentsPayAnOrderOnce(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	if d := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+s.CardDef, nil, s.H); resttest.MustJSON(d["pay_with_points"]) != `{"type":"NO_PAYMENTS"}` {
		t.Errorf("default pay_with_points %v", d["pay_with_points"])
	}
	order := resttest.MustOK(t, e, http.MethodPost, "/v1/orders", map[string]any{"source_id": "o-0", "amount": 300}, resttest.App(e.Project))["id"].(string)
	pay := func(body map[string]any, h resttest.Headers) resttest.Response {
		body["card_id"] = s.Card
		return e.DoJSON(http.MethodPost, s.PaymentsPath(), body, h)
	}
	byID := map[string]any{"id": order}
	resttest.WantErrorKey(t, pay(map[string]any{"order": byID}, s.H), http.StatusLocked, "pay_with_points_not_enabled")

	payable(t, e, s, 1, 0, 1, "o-unused")
	resttest.WantErrorKey(t, pay(map[string]any{"order": byID}, s.H), http.StatusLocked, "zero_card_balance")
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 500}, s.H)

	// A dry run computes and writes nothing.
	dry := resttest.Must(t, pay(map[string]any{"order": byID, "mode": "DRY_RUN",
		"payment_limit": map[string]any{"type": "POINTS_LIMIT", "points_limit": map[string]any{"max": 150}}}, s.H), http.StatusOK)
	if tx := dry["transaction"].(map[string]any); dry["status"] != "DRY_RUN" || tx["status"] != "SIMULATED" || tx["id"] != nil ||
		resttest.MustJSON(tx["details"].(map[string]any)["payment"]) != `{"amount":150,"exchange_ratio":1,"points_spent":150}` {
		t.Errorf("dry run %v", dry)
	}
	if n := orderPaymentCount(t, e); n != 0 || v2CardBalance(t, e, s) != 500 {
		t.Fatalf("a dry run wrote %d transactions or moved points", n)
	}

	// Bad input and unknown or foreign resources: the error, nothing written.
	resttest.WantErrorKey(t, pay(map[string]any{"order": map[string]any{"id": "ord_00000000000000000000"}}, s.H), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, pay(map[string]any{"order": byID, "payment_limit": map[string]any{"type": "POINTS_LIMIT"}}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, pay(map[string]any{"order": byID, "payment_limit": map[string]any{"type": "POINTS_LIMIT",
		"points_limit": map[string]any{"max": 0}}}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, pay(map[string]any{"order": map[string]any{}}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/members/lmbr_0000000000000000/orders/payments",
		map[string]any{"card_id": s.Card, "order": byID}, s.H), http.StatusNotFound, "not_found")
	other := resttest.V2(t, e, e.NewProject("other"))
	resttest.WantErrorKey(t, pay(map[string]any{"order": byID}, other), http.StatusNotFound, "not_found")
	if n := orderPaymentCount(t, e); n != 0 || v2CardBalance(t, e, s) != 500 {
		t.Fatalf("a refused payment wrote %d transactions or moved points", n)
	}

	// 100 of the 300 by points limit, then the rest (by source_id): the
	// card's balance caps nothing here, the order does.
	first := resttest.Must(t, pay(map[string]any{"order": byID,
		"payment_limit": map[string]any{"type": "POINTS_LIMIT", "points_limit": map[string]any{"max": 100}}}, s.H), http.StatusAccepted)
	tx := first["transaction"].(map[string]any)
	if first["status"] != "TRANSACTION_CREATED" || tx["status"] != "APPROVED" || tx["order_id"] != order ||
		resttest.MustJSON(tx["details"].(map[string]any)["metadata"]) != `{"points_limit":100}` {
		t.Errorf("first payment %v", first)
	}
	second := resttest.Must(t, pay(map[string]any{"order": map[string]any{"source_id": "o-0"}}, s.H), http.StatusAccepted)
	if p := second["transaction"].(map[string]any)["details"].(map[string]any)["payment"]; resttest.MustJSON(p) != `{"amount":200,"exchange_ratio":1,"points_spent":200}` {
		t.Errorf("second payment %v", second)
	}
	third := resttest.Must(t, pay(map[string]any{"order": byID}, s.H), http.StatusAccepted)
	if tx := third["transaction"].(map[string]any); tx["status"] != "REJECTED" || tx["card_transaction_id"] != nil ||
		resttest.MustJSON(tx["details"].(map[string]any)["rejection"]) != `{"reason":"PAYMENT_EXCEEDS_ORDER_TOTAL_AMOUNT"}` {
		t.Errorf("payment of a paid order %v", third)
	}
	if b := v2CardBalance(t, e, s); b != 200 {
		t.Errorf("balance %v, want 200", b)
	}
	spent := e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_SPENT_ON_ORDER)).AllX(resttest.SystemCtx())
	if len(spent) != 2 || spent[0].Amount+spent[1].Amount != -300 {
		t.Errorf("POINTS_SPENT_ON_ORDER transactions %v", spent)
	}

	// The list: newest first, paged by cursor.
	page := resttest.MustOK(t, e, http.MethodGet, s.PaymentsPath()+"?limit=2", nil, s.H)
	data := page["data"].([]any)
	if len(data) != 2 || data[0].(map[string]any)["status"] != "REJECTED" || page["cursor"] == nil {
		t.Fatalf("first page %v", page)
	}
	next := page["cursor"].(map[string]any)["next"].(string)
	rest := resttest.MustOK(t, e, http.MethodGet, s.PaymentsPath()+"?limit=2&cursor="+next, nil, s.H)["data"].([]any)
	if len(rest) != 1 || rest[0].(map[string]any)["id"] != tx["id"] {
		t.Errorf("second page %v", rest)
	}

	// A ratio of 2: 40 points pay 80 of a new order of 80, and no more.
	o2 := payable(t, e, s, "2", 0, 80, "o-2")
	r := resttest.Must(t, pay(map[string]any{"order": map[string]any{"id": o2}}, s.H), http.StatusAccepted)
	if p := r["transaction"].(map[string]any)["details"].(map[string]any)["payment"]; resttest.MustJSON(p) != `{"amount":80,"exchange_ratio":2,"points_spent":40}` {
		t.Errorf("ratio 2 payment %v", r)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, map[string]any{
		"pay_with_points": map[string]any{"type": "EXCHANGE_RATIO"}}, s.H), http.StatusBadRequest, "invalid_payload")
}

// TestV2ConcurrentOrderPaymentsPayOnce: 20 payments of one order at once
// over two server processes, each able to pay all of it: exactly one is
// APPROVED and moves points; the others are REJECTED and move none.
func TestV2ConcurrentOrderPaymentsPayOnce(t *testing.T) {
	e, _, servers := resttest.TwoServers(t)
	s := resttest.NewLoyaltySetup(t, e)
	order := payable(t, e, s, 1, 1000, 300, "o-race")
	resps := resttest.Burst(e, servers, s.H, 20, func(int) (string, any) {
		return s.PaymentsPath(), map[string]any{"card_id": s.Card, "order": map[string]any{"id": order}}
	})
	approved := 0
	for _, r := range resps {
		if r.Status != http.StatusAccepted {
			t.Fatalf("payment answered %d %s", r.Status, r.Body)
		}
		var body struct {
			Transaction struct{ Status string } `json:"transaction"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Transaction.Status == "APPROVED" {
			approved++
		}
	}
	if approved != 1 {
		t.Errorf("%d approved payments, want 1", approved)
	}
	if b := v2CardBalance(t, e, s); b != 700 {
		t.Errorf("balance %v, want 700", b)
	}
	if n := e.DB.Client.OrderPayment.Query().Where(orderpayment.Status("APPROVED")).CountX(resttest.SystemCtx()); n != 1 {
		t.Errorf("%d approved rows, want 1", n)
	}
	if n := e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_SPENT_ON_ORDER)).CountX(resttest.SystemCtx()); n != 1 {
		t.Errorf("%d POINTS_SPENT_ON_ORDER transactions, want 1", n)
	}
}

// TestV2OrderPaymentsThroughGraphQL: payOrderWithPoints and
// memberOrderPayments run the REST routes' use cases.
func TestV2OrderPaymentsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	order := payable(t, e, s, 1, 50, 300, "o-gql")
	vars := map[string]any{"p": s.Program, "m": s.Member, "c": s.Card, "o": order}
	r := e.GraphQL(app, `mutation($p: ID!, $m: ID!, $c: ID!, $o: ID!) { payOrderWithPoints(programID: $p, memberID: $m,
		input: {cardID: $c, order: {id: $o}}) { dryRun transaction { status amount points orderID } } }`, vars)
	if len(r.Errors) > 0 || resttest.MustJSON(r.Data["payOrderWithPoints"]) != `{"dryRun":false,"transaction":{"amount":50,"orderID":"`+order+`","points":50,"status":"APPROVED"}}` {
		t.Errorf("payOrderWithPoints: %+v %s", r.Errors, resttest.MustJSON(r.Data))
	}
	l := e.GraphQL(app, `query($p: ID!, $m: ID!) { memberOrderPayments(programID: $p, memberID: $m, page: {limit: 10, asc: false}) {
		data { amount } hasMore } }`, vars)
	if len(l.Errors) > 0 || resttest.MustJSON(l.Data["memberOrderPayments"]) != `{"data":[{"amount":50}],"hasMore":false}` {
		t.Errorf("memberOrderPayments: %+v %s", l.Errors, resttest.MustJSON(l.Data))
	}
	d := e.GraphQL(app, `query($id: ID!) { node(id: $id) { ... on CardDefinition { payWithPoints } } }`, map[string]any{"id": s.CardDef})
	if len(d.Errors) > 0 || resttest.MustJSON(d.Data) != `{"node":{"payWithPoints":{"exchange_ratio":{"formula":"1"},"type":"EXCHANGE_RATIO"}}}` {
		t.Errorf("payWithPoints: %+v %s", d.Errors, resttest.MustJSON(d.Data))
	}
}
