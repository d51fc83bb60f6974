package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/rest/resttest"
)

// race fires n requests at once, alternating between the servers, and
// returns the responses in request order.
func race(t *testing.T, e *resttest.Env, servers []string, n int, body func(i int) any, query string) []resttest.Response {
	t.Helper()
	out := make([]resttest.Response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, _ := json.Marshal(body(i))
			<-start
			out[i] = e.DoAt(servers[i%len(servers)], http.MethodPost, "/v1/publications"+query, b, resttest.App(e.Project))
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// TestConcurrentPublicationsNeverShareAVoucher: 64 publications at once from
// one campaign, through two server instances with their own connection
// pools, never hand out the same voucher twice; when vouchers run out the
// rest fail cleanly.
func TestConcurrentPublicationsNeverShareAVoucher(t *testing.T) {
	e := resttest.New(t)
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	codes := make([]string, 80)
	for i := range codes {
		codes[i] = fmt.Sprintf("C%03d", i)
	}
	staticCampaign(t, e, "hot", codes...)
	resps := race(t, e, servers, 64, func(i int) any {
		return map[string]any{"campaign": map[string]any{"name": "hot"}, "customer": map[string]any{"source_id": fmt.Sprintf("c%d", i)}}
	}, "")
	seen := map[string]bool{}
	for _, r := range resps {
		if r.Status != http.StatusOK {
			t.Fatalf("publication failed: %d %s", r.Status, r.Body)
		}
		code := r.JSON(t)["voucher"].(map[string]any)["code"].(string)
		if seen[code] {
			t.Fatalf("voucher %s handed out twice", code)
		}
		seen[code] = true
	}
	if n := e.DB.Client.Voucher.Query().Where(voucher.PublishCount(1)).CountX(systemCtx()); n != 64 {
		t.Errorf("%d vouchers published once, want 64", n)
	}
	if n := e.DB.Client.Voucher.Query().Where(voucher.PublishCountGT(1)).CountX(systemCtx()); n != 0 {
		t.Errorf("%d vouchers published more than once", n)
	}
	// 16 left, 32 asking: exactly 16 succeed.
	resps = race(t, e, servers, 32, func(i int) any {
		return map[string]any{"campaign": map[string]any{"name": "hot"}, "customer": map[string]any{"source_id": fmt.Sprintf("d%d", i)}}
	}, "")
	ok, empty := 0, 0
	for _, r := range resps {
		switch {
		case r.Status == http.StatusOK:
			ok++
		case r.Status == http.StatusBadRequest && r.JSON(t)["key"] == "no_voucher_suitable_for_publication":
			empty++
		default:
			t.Errorf("unexpected %d %s", r.Status, r.Body)
		}
	}
	if ok != 16 || empty != 16 {
		t.Errorf("%d published, %d refused; want 16 and 16", ok, empty)
	}
	if n := e.DB.Client.Publication.Query().CountX(systemCtx()); n != 80 {
		t.Errorf("%d publications stored, want 80", n)
	}
}

// TestConcurrentJoinOnceAndSourceID: simultaneous duplicates create one
// publication; every response carries it.
func TestConcurrentJoinOnceAndSourceID(t *testing.T) {
	e := resttest.New(t)
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	codes := make([]string, 40)
	for i := range codes {
		codes[i] = fmt.Sprintf("D%03d", i)
	}
	staticCampaign(t, e, "dup", codes...)
	check := func(name string, resps []resttest.Response) {
		t.Helper()
		ids := map[string]bool{}
		for _, r := range resps {
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", name, r.Status, r.Body)
			}
			ids[r.JSON(t)["id"].(string)] = true
		}
		if len(ids) != 1 {
			t.Errorf("%s: %d different publications", name, len(ids))
		}
	}
	check("join_once", race(t, e, servers, 16, func(int) any {
		return map[string]any{"campaign": map[string]any{"name": "dup"}, "customer": map[string]any{"source_id": "same-person"}}
	}, "?join_once=true"))
	check("source_id", race(t, e, servers, 16, func(int) any {
		return map[string]any{"campaign": map[string]any{"name": "dup"}, "customer": map[string]any{"source_id": "buyer"}, "source_id": "order-7"}
	}, ""))
	if n := e.DB.Client.Publication.Query().Where(publication.SourceID("order-7")).CountX(systemCtx()); n != 1 {
		t.Errorf("%d publications for order-7", n)
	}
	if n := e.DB.Client.Voucher.Query().Where(voucher.PublishCountGT(0)).CountX(systemCtx()); n != 2 {
		t.Errorf("%d vouchers published, want 2", n)
	}
	if n := e.GraphQL(resttest.App(e.Project), `{ customers { totalCount } }`, nil).Data["customers"].(map[string]any)["totalCount"]; n != float64(2) {
		t.Errorf("%v customers, want 2", n)
	}
}
