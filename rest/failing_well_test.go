package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// How the service fails when its database cannot serve (docs/deploy.md,
// "Failing well"): a stopped database answers 503 service_unavailable with
// Retry-After on REST and GraphQL and /readyz 503; a frozen one the same
// after the deadline instead of hanging; a locked row 409 resource_locked
// after the lock timeout, while other traffic goes on and the waiters hold
// a bounded share of the pool. The database sits behind a proxy the test
// stops and freezes (entdbtest.Proxy), so these run on PostgreSQL only.

// proxiedEnv starts the service on a PostgreSQL database reached through a
// proxy, with small timeouts.
func proxiedEnv(t *testing.T, dbOpts entdb.Options, requestTimeout time.Duration) (*resttest.Env, *entdbtest.Proxy) {
	t.Helper()
	if !entdbtest.IsPostgres() {
		t.Skip("PostgreSQL only (set " + entdbtest.EnvURL + "): the database is stopped and frozen behind a proxy")
	}
	proxy, url := entdbtest.NewProxy(t, entdbtest.MigratedURL(t))
	e := resttest.NewWithDB(t, url, dbOpts, func(o *rest.Options) { o.RequestTimeout = requestTimeout })
	return e, proxy
}

// wantUnavailable checks a REST answer: 503 service_unavailable, the error
// object, Retry-After.
func wantUnavailable(t *testing.T, what string, r resttest.Response) {
	t.Helper()
	var body struct {
		Code      int
		Key       string
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(r.Body, &body)
	if r.Status != http.StatusServiceUnavailable || body.Code != 503 || body.Key != "service_unavailable" ||
		body.RequestID == "" || r.Header.Get("Retry-After") == "" {
		t.Errorf("%s: %d (Retry-After %q) %s, want 503 service_unavailable with Retry-After",
			what, r.Status, r.Header.Get("Retry-After"), r.Body)
	}
}

// wantGraphQLUnavailable checks a GraphQL answer over POST (and GET for a
// query): HTTP 503 with Retry-After, an error of code 503.
func wantGraphQLUnavailable(t *testing.T, e *resttest.Env, h resttest.Headers, query string) {
	t.Helper()
	checkGraphQLUnavailable(t, query, e.DoJSON(http.MethodPost, "/graphql", map[string]any{"query": query}, h))
	if strings.HasPrefix(query, "{") {
		checkGraphQLUnavailable(t, "GET "+query, e.Do(http.MethodGet, "/graphql?query="+url.QueryEscape(query), nil, h))
	}
}

func checkGraphQLUnavailable(t *testing.T, query string, r resttest.Response) {
	t.Helper()
	var out resttest.GraphQLResponse
	_ = json.Unmarshal(r.Body, &out)
	if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || len(out.Errors) == 0 ||
		out.Errors[0].Extensions["key"] != "service_unavailable" {
		t.Errorf("GraphQL %s: %d (Retry-After %q) %s, want 503 service_unavailable with Retry-After",
			query, r.Status, r.Header.Get("Retry-After"), r.Body)
	}
}

// wantNotReady checks that /readyz answers 503.
func wantNotReady(t *testing.T, e *resttest.Env) {
	t.Helper()
	if r := e.Do(http.MethodGet, "/readyz", nil, nil); r.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz: %d %s, want 503", r.Status, r.Body)
	}
}

func TestStoppedDatabaseAnswers503(t *testing.T) {
	e, proxy := proxiedEnv(t, entdb.Options{}, 0)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Outage", "OUT-1")
	redeem := map[string]any{"order": map[string]any{"amount": 1000}}
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/OUT-1/redemption", redeem, app), http.StatusOK)

	proxy.Stop()
	wantUnavailable(t, "GET /v1/vouchers", e.Do(http.MethodGet, "/v1/vouchers", nil, app))
	wantUnavailable(t, "redemption", e.DoJSON(http.MethodPost, "/v1/vouchers/OUT-1/redemption", redeem, app))
	wantUnavailable(t, "POST /v1/customers", e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann"}, app))
	wantGraphQLUnavailable(t, e, app, `{ vouchers(first: 1) { totalCount } }`)
	wantGraphQLUnavailable(t, e, app, `mutation { upsertCustomer(input: {sourceID: "bob"}) { id } }`)
	wantNotReady(t, e)

	// Back: the same requests succeed without a restart.
	proxy.Start()
	must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/OUT-1/redemption", redeem, app), http.StatusOK)
	if r := e.Do(http.MethodGet, "/readyz", nil, nil); r.Status != http.StatusOK {
		t.Errorf("/readyz after the database came back: %d %s", r.Status, r.Body)
	}
}

func TestFrozenDatabaseAnswers503InsteadOfHanging(t *testing.T) {
	e, proxy := proxiedEnv(t, entdb.Options{StatementTimeout: 500 * time.Millisecond}, time.Second)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Frozen", "FRZ-1")
	redeem := map[string]any{"order": map[string]any{"amount": 1000}}
	must(t, e.Do(http.MethodGet, "/v1/vouchers/FRZ-1", nil, app), http.StatusOK)

	proxy.Freeze()
	// Each returns (no assertion on how fast beyond that), with a 503.
	wantUnavailable(t, "GET /v1/vouchers/FRZ-1", e.Do(http.MethodGet, "/v1/vouchers/FRZ-1", nil, app))
	wantUnavailable(t, "redemption", e.DoJSON(http.MethodPost, "/v1/vouchers/FRZ-1/redemption", redeem, app))
	wantGraphQLUnavailable(t, e, app, `{ vouchers(first: 1) { totalCount } }`)
	wantNotReady(t, e)
	proxy.Thaw()
	must(t, e.Do(http.MethodGet, "/v1/vouchers/FRZ-1", nil, app), http.StatusOK)
}

func TestLockedRowCostsABoundedWaitAndABoundedShareOfThePool(t *testing.T) {
	const lockTimeout = 300 * time.Millisecond
	e, _ := proxiedEnv(t, entdb.Options{LockTimeout: lockTimeout}, 2*time.Second)
	app := resttest.App(e.Project)
	codes := []string{"HOT"}
	for i := range 20 {
		codes = append(codes, fmt.Sprintf("COLD-%d", i))
	}
	staticCampaign(t, e, "Hot row", codes...)
	redeem := map[string]any{"order": map[string]any{"amount": 1000}}

	// Another client holds the voucher's row.
	holder, err := sql.Open("postgres", e.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`SELECT id FROM vouchers WHERE code = 'HOT' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}

	// 48 clients redeem it; meanwhile other codes are redeemed and the
	// pool's connections in use are sampled.
	const clients = 48
	var hotDone sync.WaitGroup
	hot := make([]resttest.Response, clients)
	start := make(chan struct{})
	for i := range clients {
		hotDone.Add(1)
		go func() {
			defer hotDone.Done()
			<-start
			hot[i] = e.DoJSON(http.MethodPost, "/v1/vouchers/HOT/redemption", redeem, app)
		}()
	}
	var stop atomic.Bool
	var maxInUse atomic.Int64
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for !stop.Load() {
			if n := int64(e.DB.SQL.Stats().InUse); n > maxInUse.Load() {
				maxInUse.Store(n)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	close(start)
	others := make(chan []resttest.Response)
	go func() {
		var out []resttest.Response
		for i := 0; !stop.Load(); i++ {
			out = append(out, e.DoJSON(http.MethodPost, "/v1/vouchers/"+codes[1+i%20]+"/redemption", redeem, app))
		}
		others <- out
	}()
	hotDone.Wait()
	stop.Store(true)
	otherResps := <-others
	<-sampled

	// Every hot request returned while the row was still held, each a
	// clean 409 resource_locked (the lock timeout, or the request's
	// deadline spent waiting its turn) or 503, with Retry-After.
	for i, r := range hot {
		var body struct{ Key string }
		_ = json.Unmarshal(r.Body, &body)
		ok := (r.Status == http.StatusConflict && body.Key == "resource_locked") ||
			(r.Status == http.StatusServiceUnavailable && body.Key == "service_unavailable")
		if !ok || r.Header.Get("Retry-After") == "" {
			t.Errorf("hot redemption %d: %d (Retry-After %q) %s", i, r.Status, r.Header.Get("Retry-After"), r.Body)
		}
	}
	// The other codes kept being redeemed during the wait.
	if len(otherResps) == 0 {
		t.Error("no other redemption ran while the row was locked")
	}
	for _, r := range otherResps {
		if r.Status != http.StatusOK {
			t.Errorf("redemption of another code during the wait: %d %s", r.Status, r.Body)
		}
	}
	// The waiters held at most HotRowWaiters connections (plus one for the
	// other traffic, and slack for the rate limiter's flush and the like),
	// far from the pool's 32.
	if n := maxInUse.Load(); n > int64(graph.HotRowWaiters())+4 {
		t.Errorf("connections in use during the wait: up to %d, want at most %d", n, graph.HotRowWaiters()+4)
	}
	// Released, the row is redeemable again.
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/HOT/redemption", redeem, app), http.StatusOK)
}

// TestSQLiteWriterHeldAnswers503: on SQLite, a write that cannot get the
// one writer (another process holds it) answers 503 with Retry-After, not
// a 500. It waits SQLite's busy timeout (10 s) first, not the request's
// deadline: the transaction it joins is shared by the process's writers
// (ent/entdb/sqlite_writers.go), so one request's deadline cannot end it.
func TestSQLiteWriterHeldAnswers503(t *testing.T) {
	if entdbtest.IsPostgres() {
		t.Skip("SQLite only: PostgreSQL's row locks are TestLockedRowCostsABoundedWaitAndABoundedShareOfThePool")
	}
	url := entdbtest.MigratedURL(t)
	e := resttest.NewWithDB(t, url, entdb.Options{}, func(o *rest.Options) { o.RequestTimeout = 500 * time.Millisecond })
	app := resttest.App(e.Project)
	// Set-up and the last redemption run under the 500 ms deadline too: on
	// a loaded host they may be told 503 (with Retry-After), and retry as a
	// client would. A retried create may find the first one's row (409).
	retryUnavailable(t, func() resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Busy", "type": "STATIC",
			"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app)
	}, http.StatusOK, http.StatusConflict)
	retryUnavailable(t, func() resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/campaigns/Busy/vouchers", map[string]any{"code": "BSY-1"}, app)
	}, http.StatusOK, http.StatusConflict)

	// The other process waits its turn for the write lock (the service's
	// worker may hold it a moment): without a busy timeout its BEGIN
	// IMMEDIATE failed at once now and then.
	other, err := sql.Open("sqlite", "file:"+strings.TrimPrefix(url, "sqlite://")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	redeem := map[string]any{"order": map[string]any{"amount": 1000}}
	wantUnavailable(t, "redemption while another process writes",
		e.DoJSON(http.MethodPost, "/v1/vouchers/BSY-1/redemption", redeem, app))
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	retryUnavailable(t, func() resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/vouchers/BSY-1/redemption", redeem, app)
	}, http.StatusOK)
}

// retryUnavailable sends do until it is not a 503 (at most five times, a
// second apart) and wants one of the statuses.
func retryUnavailable(t *testing.T, do func() resttest.Response, want ...int) resttest.Response {
	t.Helper()
	r := do()
	for i := 0; i < 4 && r.Status == http.StatusServiceUnavailable; i++ {
		time.Sleep(time.Second)
		r = do()
	}
	if !slices.Contains(want, r.Status) {
		t.Fatalf("%d %s, want one of %v", r.Status, r.Body, want)
	}
	return r
}
