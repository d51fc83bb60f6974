package rest_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestHealthAndReadiness(t *testing.T) {
	e := resttest.New(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if resp := e.Do(http.MethodGet, path, nil, nil); resp.Status != http.StatusOK {
			t.Errorf("%s: %d", path, resp.Status)
		}
	}
	_ = e.DB.SQL.Close()
	if resp := e.Do(http.MethodGet, "/readyz", nil, nil); resp.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz with a closed database: %d", resp.Status)
	}
}

func TestUnsupportedMethodAndUnknownPath(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resp := e.Do(http.MethodDelete, "/v1/campaigns", nil, app)
	if got := resp.JSON(t); resp.Status != http.StatusMethodNotAllowed || got["code"] != float64(405) || got["request_id"] == "" {
		t.Errorf("DELETE /v1/campaigns: %d %s", resp.Status, resp.Body)
	}
	resp = e.Do(http.MethodGet, "/v1/nothing-here", nil, app)
	if resp.Status != http.StatusNotFound || resp.JSON(t)["key"] != "not_found" {
		t.Errorf("unknown path: %d %s", resp.Status, resp.Body)
	}
}

func TestAcceptsWhatTheSDKsSend(t *testing.T) {
	e := resttest.New(t)
	h := resttest.App(e.Project)
	h["X-Voucherify-Channel"] = "Node.js-v20.20.2-SDK-v2.9.0"
	h["User-Agent"] = "axios/1.7.5"
	resp := e.Do(http.MethodPost, "/v1/campaigns",
		[]byte(`{"name":"sdk","description":null,"voucher":null,"metadata":null,"start_date":null,"join_once":null}`), h)
	if resp.Status != http.StatusOK {
		t.Fatalf("null optional fields: %d %s", resp.Status, resp.Body)
	}
	if md, ok := resp.JSON(t)["metadata"].(map[string]any); !ok || len(md) != 0 {
		t.Errorf("metadata = %v, want {}", resp.JSON(t)["metadata"])
	}
	// GET with a JSON content type and an empty body (resttest always sends it).
	if resp := e.Do(http.MethodGet, "/v1/campaigns/sdk", nil, h); resp.Status != http.StatusOK {
		t.Errorf("GET with Content-Type: %d", resp.Status)
	}
}

func TestPlaygroundIsServedFromTheBinary(t *testing.T) {
	e := resttest.New(t)
	page := e.Do(http.MethodGet, "/playground", nil, nil)
	body := string(page.Body)
	if page.Status != http.StatusOK || !strings.Contains(body, "/playground/assets/graphiql.min.js") ||
		!strings.Contains(body, "X-App-Id") || strings.Contains(body, "https://") {
		t.Fatalf("playground page: %d", page.Status)
	}
	for _, asset := range []string{"graphiql.min.js", "graphiql.min.css", "react.production.min.js", "react-dom.production.min.js"} {
		req, _ := http.NewRequest(http.MethodGet, e.Server.URL+"/playground/assets/"+asset, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", asset, resp.StatusCode, err)
		}
		n, _ := io.Copy(io.Discard, zr)
		resp.Body.Close()
		if n < 1000 {
			t.Errorf("%s is only %d bytes", asset, n)
		}
	}
}

// TestConcurrentCreatesWithOneName races requests for the same campaign
// name: exactly one wins, the others get 409, and one row exists.
func TestConcurrentCreatesWithOneName(t *testing.T) {
	e := resttest.New(t)
	const n = 16
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			statuses[i] = e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "race"}, resttest.App(e.Project)).Status
		}()
	}
	close(start)
	wg.Wait()
	ok, conflict := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			conflict++
		default:
			t.Errorf("unexpected status %d", s)
		}
	}
	if ok != 1 || conflict != n-1 {
		t.Errorf("%d created, %d conflicts; want 1 and %d", ok, conflict, n-1)
	}
	if c := e.DB.Client.Campaign.Query().Where(campaign.Name("race")).CountX(systemCtx()); c != 1 {
		t.Errorf("%d rows named race", c)
	}
}
