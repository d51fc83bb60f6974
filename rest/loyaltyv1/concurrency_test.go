package loyaltyv1_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1LoyaltyParallelSubtractionsNeverOverdraw sends 50 subtractions of
// 3 points at once to a card holding 100, through two server processes:
// exactly 33 succeed, the others are refused, and the card ends at 1 with
// one transaction per success.
func TestV1LoyaltyParallelSubtractionsNeverOverdraw(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Race", 100)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "racer")["code"].(string)
	second := e.AnotherServer()

	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	start := make(chan struct{})
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			body := []byte(`{"points": -3}`)
			var r resttest.Response
			if i%2 == 0 {
				r = e.Do(http.MethodPost, "/v1/loyalties/members/"+code+"/balance", body, app)
			} else {
				r = e.DoAt(second.URL, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", body, app)
			}
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
			if r.Status == http.StatusBadRequest && r.JSON(t)["key"] != "invalid_amount" {
				t.Errorf("refusal %s", r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	if statuses[http.StatusOK] != 33 || statuses[http.StatusBadRequest] != 17 {
		t.Errorf("statuses %v, want 33×200 and 17×400", statuses)
	}
	card := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)
	if lc := card["loyalty_card"].(map[string]any); lc["balance"] != float64(1) || lc["points"] != float64(1) {
		t.Errorf("card after the race %v", lc)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)
	if n := len(txs["data"].([]any)); n != 33 {
		t.Errorf("%d transactions, want 33", n)
	}
}

// TestV1LoyaltyOppositeTransfersDoNotDeadlock runs transfers A→B and B→A at
// once through two server processes: every one succeeds (the cards are
// locked in one order, so none waits in a cycle) and no point is lost or
// made.
func TestV1LoyaltyOppositeTransfersDoNotDeadlock(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Swap", 1000)["id"].(string)
	a := resttest.AddV1Member(t, e, app, id, "a")["code"].(string)
	b := resttest.AddV1Member(t, e, app, id, "b")["code"].(string)
	second := e.AnotherServer()

	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			from, to := a, b
			if i%2 == 1 {
				from, to = b, a
			}
			base := e.Server.URL
			if i%4 >= 2 {
				base = second.URL
			}
			r := e.DoAt(base, http.MethodPost, "/v1/loyalties/"+id+"/members/"+to+"/transfers",
				[]byte(`[{"code": "`+from+`", "points": 10}]`), app)
			if r.Status != http.StatusOK {
				t.Errorf("transfer %s→%s: %d %s", from, to, r.Status, r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	for _, code := range []string{a, b} {
		card := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)
		if lc := card["loyalty_card"].(map[string]any); lc["balance"] != float64(1000) {
			t.Errorf("card %s after the transfers %v", code, lc)
		}
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/transactions?limit=100", nil, app)
	if n := len(txs["data"].([]any)); n != 80 {
		t.Errorf("%d transactions, want 80 (40 out, 40 in)", n)
	}
}
