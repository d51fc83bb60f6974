package rest_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestRateLimitHoldsUnderConcurrencyAcrossServers: twelve clients hammer
// one key concurrently through two server processes sharing the database
// (each with its own limiters). Between them the processes admit no more
// than the limit (each admits only what it reserved from the shared
// count) and not much less (at most one block per process left unused);
// every refusal is the 429 error object with its headers. Both the server
// API's limit and the client API's are held.
func TestRateLimitHoldsUnderConcurrencyAcrossServers(t *testing.T) {
	const (
		serverLimit = 300
		clientLimit = 100
		processes   = 2
		clients     = 12
	)
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = serverLimit; o.ClientRateLimit = clientLimit })
	clientSettings(t, e, e.NewManagementKey(), map[string]any{"client_trusted_domains": []string{shopOrigin}})
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	cases := []struct {
		name, path string
		headers    resttest.Headers
		limit      int
		// admitted is the status of an admitted request; perClient how
		// many requests each client sends (together well over the limit).
		admitted, perClient int
	}{
		{"server API", "/v1/vouchers", resttest.App(e.Project), serverLimit, http.StatusOK, 40},
		{"client API", "/client/v1/validate?code=NONE", resttest.Client(e.Project, shopOrigin), clientLimit, http.StatusNotFound, 15},
	}
	freshWindow(t, 20*time.Second)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			responses := make([][]resttest.Response, clients)
			var wg sync.WaitGroup
			for c := range clients {
				wg.Go(func() {
					for range tc.perClient {
						responses[c] = append(responses[c], e.DoAt(servers[c%processes], http.MethodGet, tc.path, nil, tc.headers))
					}
				})
			}
			wg.Wait()

			admitted, refused := 0, 0
			for _, rs := range responses {
				for _, r := range rs {
					if limit, remaining := rateHeaders(t, r); limit != tc.limit || remaining < 0 || remaining > tc.limit-1 {
						t.Fatalf("limit %d remaining %d (%d %s)", limit, remaining, r.Status, r.Body)
					}
					switch r.Status {
					case tc.admitted:
						admitted++
					case http.StatusTooManyRequests:
						refused++
						wantError(t, r, http.StatusTooManyRequests, "too_many_requests", "requests per minute")
						wantRetryAfter(t, r)
						if _, remaining := rateHeaders(t, r); remaining != 0 {
							t.Errorf("refusal with X-Rate-Limit-Remaining %d", remaining)
						}
					default:
						t.Fatalf("unexpected answer %d %s", r.Status, r.Body)
					}
				}
			}
			block := tc.limit / 20
			t.Logf("%d clients on %d processes: %d admitted, %d refused (limit %d)", clients, processes, admitted, refused, tc.limit)
			if admitted > tc.limit || admitted < tc.limit-processes*block {
				t.Errorf("admitted %d requests; want %d..%d", admitted, tc.limit-processes*block, tc.limit)
			}
			// Both processes now refuse the key.
			for _, base := range servers {
				wantError(t, e.DoAt(base, http.MethodGet, tc.path, nil, tc.headers), http.StatusTooManyRequests, "too_many_requests", "")
			}
		})
	}
}
