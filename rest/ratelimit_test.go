package rest_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// freshWindow waits for the next minute when the current one has less
// left than the test needs (a generous bound of how long the rest of the
// test takes), so that no window ends (and resets the counts) in the
// middle of it.
func freshWindow(t *testing.T, need time.Duration) {
	t.Helper()
	if left := time.Until(time.Now().Truncate(time.Minute).Add(time.Minute)); left < need {
		time.Sleep(left + 50*time.Millisecond)
	}
}

// rateHeaders returns the limit and remaining headers, failing when they
// are missing or not numbers.
func rateHeaders(t *testing.T, r resttest.Response) (limit, remaining int) {
	t.Helper()
	l, err1 := strconv.Atoi(r.Header.Get("X-Rate-Limit-Limit"))
	rem, err2 := strconv.Atoi(r.Header.Get("X-Rate-Limit-Remaining"))
	if err1 != nil || err2 != nil {
		t.Fatalf("rate-limit headers missing (%d): limit %q remaining %q", r.Status,
			r.Header.Get("X-Rate-Limit-Limit"), r.Header.Get("X-Rate-Limit-Remaining"))
	}
	return l, rem
}

// wantRetryAfter asserts a refusal's Retry-After: whole seconds until the
// minute ends.
func wantRetryAfter(t *testing.T, r resttest.Response) {
	t.Helper()
	if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
		t.Errorf("Retry-After = %q, want 1..60 seconds", r.Header.Get("Retry-After"))
	}
}

func TestRateLimitHeadersAndRefusal(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 5 })
	freshWindow(t, 5*time.Second)
	app := resttest.App(e.Project)
	for i := range 5 {
		r := e.Do(http.MethodGet, "/v1/vouchers", nil, app)
		must(t, r, http.StatusOK)
		if limit, remaining := rateHeaders(t, r); limit != 5 || remaining != 4-i {
			t.Errorf("request %d: limit %d remaining %d, want 5 and %d", i+1, limit, remaining, 4-i)
		}
	}
	limited := e.Do(http.MethodGet, "/v1/vouchers", nil, app)
	wantError(t, limited, http.StatusTooManyRequests, "too_many_requests", "5 requests per minute")
	wantRetryAfter(t, limited)
	if limit, remaining := rateHeaders(t, limited); limit != 5 || remaining != 0 {
		t.Errorf("refused: limit %d remaining %d", limit, remaining)
	}
	body := limited.JSON(t)
	if body["code"] != float64(429) || body["message"] != "Too many requests" || body["request_id"] == "" {
		t.Errorf("refusal = %s", limited.Body)
	}
	// Refusals are not counted; a write is refused like a read.
	wantError(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "s"}, app),
		http.StatusTooManyRequests, "too_many_requests", "")

	// Another key has its own allowance.
	other := resttest.App(e.NewProject("project B"))
	r := e.Do(http.MethodGet, "/v1/vouchers", nil, other)
	must(t, r, http.StatusOK)
	if _, remaining := rateHeaders(t, r); remaining != 4 {
		t.Errorf("another key: remaining %d, want 4", remaining)
	}

	// Refused credentials are not counted and get no rate-limit headers.
	bad := e.Do(http.MethodGet, "/v1/vouchers", nil, resttest.Headers{"X-App-Id": e.Project.AppID, "X-App-Token": "wrong"})
	if bad.Status != http.StatusUnauthorized || bad.Header.Get("X-Rate-Limit-Limit") != "" {
		t.Errorf("bad credentials: %d, X-Rate-Limit-Limit %q", bad.Status, bad.Header.Get("X-Rate-Limit-Limit"))
	}

	// The management API is not limited.
	mk := e.NewManagementKey()
	for range 7 {
		m := e.Do(http.MethodGet, "/management/v1/projects/"+e.Project.ProjectID, nil, mk)
		must(t, m, http.StatusOK)
		if m.Header.Get("X-Rate-Limit-Limit") != "" {
			t.Fatalf("management API answered X-Rate-Limit-Limit %q", m.Header.Get("X-Rate-Limit-Limit"))
		}
	}
}

func TestRateLimitCountsOAuthTokensAgainstTheirKey(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 3 })
	freshWindow(t, 5*time.Second)
	app := resttest.App(e.Project)
	bearer := resttest.Bearer(e.Token(app, "api")) // 1: issuing the token
	must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, bearer), http.StatusOK)
	r := e.Do(http.MethodGet, "/v1/vouchers", nil, app)
	must(t, r, http.StatusOK)
	if _, remaining := rateHeaders(t, r); remaining != 0 {
		t.Errorf("remaining %d after 3 requests, want 0", remaining)
	}
	limited := e.Do(http.MethodGet, "/v1/vouchers", nil, bearer)
	wantError(t, limited, http.StatusTooManyRequests, "too_many_requests", "")
	wantRetryAfter(t, limited)
}

func TestRateLimitGraphQL(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 2 })
	freshWindow(t, 5*time.Second)
	app := resttest.App(e.Project)
	query := []byte(`{"query":"{ __typename }"}`)
	for i := range 2 {
		r := e.Do(http.MethodPost, "/graphql", query, app)
		if r.Status != http.StatusOK {
			t.Fatalf("GraphQL %d: %d %s", i+1, r.Status, r.Body)
		}
		if limit, remaining := rateHeaders(t, r); limit != 2 || remaining != 1-i {
			t.Errorf("GraphQL %d: limit %d remaining %d", i+1, limit, remaining)
		}
	}
	limited := e.Do(http.MethodPost, "/graphql", query, app)
	wantRetryAfter(t, limited)
	gql := e.GraphQL(app, "{ __typename }", nil)
	if gql.Status != http.StatusTooManyRequests || len(gql.Errors) != 1 ||
		gql.Errors[0].Extensions["key"] != "too_many_requests" || gql.Errors[0].Extensions["code"] != float64(429) {
		t.Fatalf("GraphQL over the limit = %d %+v", gql.Status, gql.Errors)
	}
	// GraphQL and REST share the key's allowance.
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
}

func TestRateLimitClientKeysHaveTheirOwn(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 2; o.ClientRateLimit = 3 })
	clientSettings(t, e, e.NewManagementKey(), map[string]any{"client_trusted_domains": []string{shopOrigin}})
	freshWindow(t, 5*time.Second)
	cl := resttest.Client(e.Project, shopOrigin)
	for i := range 3 {
		r := e.Do(http.MethodGet, "/client/v1/validate?code=NONE", nil, cl)
		wantError(t, r, http.StatusNotFound, "not_found", "")
		if limit, remaining := rateHeaders(t, r); limit != 3 || remaining != 2-i {
			t.Errorf("client request %d: limit %d remaining %d", i+1, limit, remaining)
		}
	}
	limited := e.Do(http.MethodGet, "/client/v1/validate?code=NONE", nil, cl)
	wantError(t, limited, http.StatusTooManyRequests, "too_many_requests", "client-side key may make 3 requests per minute")
	wantRetryAfter(t, limited)
	// The server-side key's allowance is untouched.
	app := resttest.App(e.Project)
	r := e.Do(http.MethodGet, "/v1/vouchers", nil, app)
	must(t, r, http.StatusOK)
	if limit, remaining := rateHeaders(t, r); limit != 2 || remaining != 1 {
		t.Errorf("server key after client requests: limit %d remaining %d", limit, remaining)
	}
}

// TestRateLimitSharedAcrossServers: two server processes on one database
// admit one key's limit between them and never more: each admits only
// what it reserved from the shared count.
func TestRateLimitSharedAcrossServers(t *testing.T) {
	cases := []struct {
		name           string
		limit, block   int
		requestsToSend int
	}{
		// Reserving for every request: exactly the limit.
		{"reserve every request", 10, 1, 30},
		// Reserving blocks of limit/20 = 5: requests alternate between the
		// processes, so both use up what they reserved.
		{"blocks", 100, 0, 260},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := resttest.NewWithOptions(t, func(o *rest.Options) {
				o.RateLimit = tc.limit
				o.RateLimitBlock = tc.block
			})
			servers := []string{e.Server.URL, e.AnotherServer().URL}
			freshWindow(t, 20*time.Second)
			app := resttest.App(e.Project)
			allowed := 0
			for i := range tc.requestsToSend {
				r := e.DoAt(servers[i%2], http.MethodGet, "/v1/vouchers", nil, app)
				switch r.Status {
				case http.StatusOK:
					allowed++
				case http.StatusTooManyRequests:
					wantRetryAfter(t, r)
				default:
					t.Fatalf("request %d: %d %s", i+1, r.Status, r.Body)
				}
				if limit, remaining := rateHeaders(t, r); limit != tc.limit || remaining < 0 || remaining > tc.limit-1 {
					t.Fatalf("request %d: limit %d remaining %d", i+1, limit, remaining)
				}
			}
			t.Logf("two servers admitted %d of %d requests (limit %d)", allowed, tc.requestsToSend, tc.limit)
			if allowed != tc.limit {
				t.Errorf("two servers admitted %d requests; want exactly %d", allowed, tc.limit)
			}
			// Both now refuse.
			for _, base := range servers {
				wantError(t, e.DoAt(base, http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
			}
		})
	}
}

// TestRateLimitUnderConcurrency: parallel requests on one process admit
// exactly the limit.
func TestRateLimitUnderConcurrency(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 10 })
	freshWindow(t, 5*time.Second)
	app := resttest.App(e.Project)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		statuses = map[int]int{}
	)
	for range 25 {
		wg.Go(func() {
			r := e.Do(http.MethodGet, "/v1/vouchers", nil, app)
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[http.StatusOK] != 10 || statuses[http.StatusTooManyRequests] != 15 {
		t.Errorf("statuses = %v, want 10 × 200 and 15 × 429", statuses)
	}
}

// TestRateLimitWithoutTheSharedTable: without the database (no SQLDB) or
// when reserving fails, each process still limits on its own and no
// request fails because of the limiter; what it admitted alone is added
// to the shared count once the table is back.
func TestRateLimitWithoutTheSharedTable(t *testing.T) {
	t.Run("no SQLDB", func(t *testing.T) {
		e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 3; o.SQLDB = nil })
		freshWindow(t, 5*time.Second)
		app := resttest.App(e.Project)
		for range 3 {
			must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusOK)
		}
		wantError(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
	})
	t.Run("reserving fails", func(t *testing.T) {
		e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 3; o.RateLimitBlock = 1 })
		freshWindow(t, 10*time.Second)
		if _, err := e.DB.SQL.Exec("DROP TABLE rate_limit_windows"); err != nil {
			t.Fatal(err)
		}
		app := resttest.App(e.Project)
		for range 3 {
			must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusOK)
		}
		wantError(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
		// A second later the process reserves again: it re-creates the
		// table and first adds the requests it admitted alone, so the key
		// stays refused here and on another process.
		time.Sleep(1200 * time.Millisecond)
		wantError(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
		var n int64
		err := e.DB.SQL.QueryRow("SELECT count FROM rate_limit_windows WHERE key_id = '" + "server:" + e.Project.AppID + "'").Scan(&n)
		if err != nil || n != 3 {
			t.Fatalf("shared count after the table came back = %d, %v; want 3", n, err)
		}
		wantError(t, e.DoAt(e.AnotherServer().URL, http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
	})
}

// TestRateLimitTableSurvivesMigration: the hand-written table is left
// alone by the schema migration every process runs at start.
func TestRateLimitTableSurvivesMigration(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = 3; o.RateLimitBlock = 1 })
	freshWindow(t, 10*time.Second)
	app := resttest.App(e.Project)
	must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusOK)
	must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusOK)
	if err := e.DB.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	var n int64
	err := e.DB.SQL.QueryRow("SELECT count FROM rate_limit_windows WHERE key_id = '" + "server:" + e.Project.AppID + "'").Scan(&n)
	if err != nil || n != 2 { // each request reserved one before it was admitted
		t.Fatalf("shared count after migrating = %d, %v; want 2", n, err)
	}
	// A new process starts from the shared count: one more, not three,
	// before it refuses.
	other := e.AnotherServer().URL
	must(t, e.DoAt(other, http.MethodGet, "/v1/vouchers", nil, app), http.StatusOK)
	wantError(t, e.DoAt(other, http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusTooManyRequests, "too_many_requests", "")
}

func TestRateLimitOff(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit = -1 })
	app := resttest.App(e.Project)
	for range 3 {
		r := e.Do(http.MethodGet, "/v1/vouchers", nil, app)
		must(t, r, http.StatusOK)
		if r.Header.Get("X-Rate-Limit-Limit") != "" || r.Header.Get("X-Rate-Limit-Remaining") != "" {
			t.Fatalf("no limit, yet headers %q %q", r.Header.Get("X-Rate-Limit-Limit"), r.Header.Get("X-Rate-Limit-Remaining"))
		}
	}
}

func TestRateLimitHeadersReadableFromBrowsers(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.CORSOrigins = []string{"https://admin.example.com"} })
	r := e.Do(http.MethodGet, "/v1/vouchers", nil, resttest.Merge(resttest.App(e.Project), resttest.Headers{"Origin": "https://admin.example.com"}))
	must(t, r, http.StatusOK)
	exposed := r.Header.Get("Access-Control-Expose-Headers")
	for _, h := range []string{"X-Rate-Limit-Limit", "X-Rate-Limit-Remaining", "Retry-After"} {
		if !containsToken(exposed, h) {
			t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, h)
		}
	}
	if limit, _ := rateHeaders(t, r); limit != rest.DefaultRateLimit {
		t.Errorf("default limit %d, want %d", limit, rest.DefaultRateLimit)
	}
}

func containsToken(list, token string) bool {
	return slices.Contains(strings.Split(list, ", "), token)
}
