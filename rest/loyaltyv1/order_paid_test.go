package loyaltyv1_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1OrderPaidEarnsOncePerOrder: an order that becomes PAID through a
// redemption runs the program's order.paid rules once; the same order
// paid again (a retry, or six deliveries at once through two server
// processes) earns nothing more, and an unpaid order earns nothing.
func TestV1OrderPaidEarnsOncePerOrder(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Shop", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "eve")["code"].(string)
	rules := []any{
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 10}},
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_AMOUNT",
			"order": map[string]any{"amount": map[string]any{"every": 1000, "points": 3}}}},
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_TOTAL_AMOUNT",
			"order": map[string]any{"total_amount": map[string]any{"every": 1000, "points": 1}}}},
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rules, app); r.Status != http.StatusOK {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	resttest.StaticCampaign(t, e, "Coupons", "C1")
	redeem := func(base, orderID, status string) resttest.Response {
		return e.DoAt(base, http.MethodPost, "/v1/vouchers/C1/redemption", []byte(`{"customer": {"source_id": "eve"},
			"order": {"source_id": "`+orderID+`", "amount": 12345, "status": "`+status+`"}}`), app)
	}
	balance := func() float64 {
		return resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)["loyalty_card"].(map[string]any)["balance"].(float64)
	}
	// 10 + floor(12345/1000)×3 + floor((12345-100)/1000)×1 = 10 + 36 + 12.
	const perOrder = 58
	if r := redeem(e.Server.URL, "o-1", "PAID"); r.Status != http.StatusOK {
		t.Fatalf("redeem: %d %s", r.Status, r.Body)
	}
	if b := balance(); b != perOrder {
		t.Fatalf("balance after a paid order %v, want %d", b, perOrder)
	}
	redeem(e.Server.URL, "o-1", "PAID")
	if b := balance(); b != perOrder {
		t.Errorf("balance after the same order paid again %v, want %d", b, perOrder)
	}
	redeem(e.Server.URL, "o-2", "CREATED")
	if b := balance(); b != perOrder {
		t.Errorf("balance after an unpaid order %v, want %d", b, perOrder)
	}

	second := e.AnotherServer()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			base := e.Server.URL
			if i%2 == 1 {
				base = second.URL
			}
			if r := redeem(base, "o-2", "PAID"); r.Status != http.StatusOK {
				t.Errorf("paying o-2: %d %s", r.Status, r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	if b := balance(); b != 2*perOrder {
		t.Errorf("balance after o-2 paid six times at once %v, want %d", b, 2*perOrder)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any)
	if len(txs) != 6 {
		t.Errorf("%d accruals, want 6 (3 rules × 2 orders)", len(txs))
	}
}
