package loyaltyv1_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1RollbackTakesAnOrdersPointsBack: rolling back the redemption that
// paid an order cancels the order and takes back the points its
// order.paid rules credited — once, even when the rollback is asked for
// at once through two server processes — and never below zero: points
// already spent stay spent.
func TestV1RollbackTakesAnOrdersPointsBack(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Shop", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "rex")["code"].(string)
	rules := []any{map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL",
		"calculation_type": "ORDER_AMOUNT", "order": map[string]any{"amount": map[string]any{"every": 100, "points": 1}}}}}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rules, app); r.Status != http.StatusOK {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	resttest.StaticCampaign(t, e, "Coupons", "C1", "C2")
	balance := func() float64 {
		return resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)["loyalty_card"].(map[string]any)["balance"].(float64)
	}
	redeem := func(voucher, orderID string, amount string) string {
		r := e.Do(http.MethodPost, "/v1/vouchers/"+voucher+"/redemption", []byte(`{"customer": {"source_id": "rex"},
			"order": {"source_id": "`+orderID+`", "amount": `+amount+`, "status": "PAID"}}`), app)
		if r.Status != http.StatusOK {
			t.Fatalf("redeem %s: %d %s", voucher, r.Status, r.Body)
		}
		return r.JSON(t)["id"].(string)
	}
	first := redeem("C1", "o-1", "5000")  // 50 points
	second := redeem("C2", "o-2", "3000") // 30 points
	if b := balance(); b != 80 {
		t.Fatalf("balance after two paid orders %v, want 80", b)
	}

	other := e.AnotherServer()
	var wg sync.WaitGroup
	start := make(chan struct{})
	statuses := make([]int, 4)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			base := e.Server.URL
			if i%2 == 1 {
				base = other.URL
			}
			statuses[i] = e.DoAt(base, http.MethodPost, "/v1/redemptions/"+first+"/rollback", nil, app).Status
		}()
	}
	close(start)
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			ok++
		}
	}
	if ok != 1 {
		t.Fatalf("rollbacks answered %v, want exactly one 200", statuses)
	}
	if b := balance(); b != 30 {
		t.Errorf("balance after o-1's redemption was rolled back %v, want 30", b)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any)
	removals := 0
	for _, tx := range txs {
		if m := tx.(map[string]any); m["type"] == "POINTS_REMOVAL" {
			removals++
			if d := m["details"].(map[string]any); d["order"].(map[string]any)["source_id"] != "o-1" {
				t.Errorf("removal details %v, want order o-1", d)
			}
		}
	}
	if removals != 1 {
		t.Errorf("%d removals, want 1", removals)
	}

	// Points spent meanwhile are not taken below zero.
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": -20}, app); r.Status != http.StatusOK {
		t.Fatalf("spending: %d %s", r.Status, r.Body)
	}
	if r := e.Do(http.MethodPost, "/v1/redemptions/"+second+"/rollback", nil, app); r.Status != http.StatusOK {
		t.Fatalf("rollback: %d %s", r.Status, r.Body)
	}
	if b := balance(); b != 0 {
		t.Errorf("balance after o-2 was rolled back with 10 of its 30 points left %v, want 0", b)
	}
}
