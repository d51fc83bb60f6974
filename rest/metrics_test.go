package rest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// series parses the Prometheus text format into "name{labels}" → value
// (labels as the exposition writes them: sorted by name).
func series(t *testing.T, body []byte) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if i < 0 || err != nil {
			t.Fatalf("metrics line %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

// scrape fetches GET /metrics (no credentials) from base.
func scrape(t *testing.T, e *resttest.Env, base string) (map[string]float64, string) {
	t.Helper()
	resp := e.DoAt(base, http.MethodGet, rest.MetricsPath, nil, nil)
	if resp.Status != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics: %d %s\n%.500s", resp.Status, resp.Header.Get("Content-Type"), resp.Body)
	}
	return series(t, resp.Body), string(resp.Body)
}

func wantSeries(t *testing.T, got map[string]float64, name string, want float64) {
	t.Helper()
	if v, ok := got[name]; !ok || v != want {
		t.Errorf("%s = %v (present %v), want %v", name, v, ok, want)
	}
}

func TestMetricsLabelRequestsByRouteTemplate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Raw-Campaign-Name-7"}, app), http.StatusOK)
	must(t, e.Do(http.MethodGet, "/v1/campaigns/Raw-Campaign-Name-7", nil, app), http.StatusOK)
	must(t, e.Do(http.MethodGet, "/v1/campaigns/Raw-Campaign-Name-7", nil, app), http.StatusOK)
	must(t, e.Do(http.MethodGet, "/v1/campaigns/Raw-Missing-9", nil, app), http.StatusNotFound)
	must(t, e.Do(http.MethodGet, "/v1/no-such-endpoint/raw-unmatched-3", nil, app), http.StatusNotFound)
	must(t, e.Do("FROB", "/v1/campaigns/Raw-Campaign-Name-7", nil, app), http.StatusMethodNotAllowed)
	must(t, e.Do(http.MethodGet, "/healthz", nil, nil), http.StatusOK)

	got, text := scrape(t, e, e.Server.URL)
	wantSeries(t, got, `promoengine_http_requests_total{method="GET",route="/v1/campaigns/:campaignId",status="200"}`, 2)
	wantSeries(t, got, `promoengine_http_requests_total{method="GET",route="/v1/campaigns/:campaignId",status="404"}`, 1)
	wantSeries(t, got, `promoengine_http_requests_total{method="POST",route="/v1/campaigns",status="200"}`, 1)
	wantSeries(t, got, `promoengine_http_requests_total{method="GET",route="unmatched",status="404"}`, 1)
	wantSeries(t, got, `promoengine_http_requests_total{method="other",route="unmatched",status="405"}`, 1)
	wantSeries(t, got, `promoengine_http_requests_total{method="GET",route="/healthz",status="200"}`, 1)
	wantSeries(t, got, `promoengine_http_request_duration_seconds_count{method="GET",route="/v1/campaigns/:campaignId"}`, 3)
	if _, ok := got[`promoengine_http_request_duration_seconds_bucket{method="GET",route="/v1/campaigns/:campaignId",le="+Inf"}`]; !ok {
		t.Error("duration histogram has no buckets")
	}
	for _, raw := range []string{"Raw-Campaign-Name-7", "Raw-Missing-9", "raw-unmatched-3", "FROB"} {
		if strings.Contains(text, raw) {
			t.Errorf("metrics contain the raw request value %q", raw)
		}
	}
	// Pool, job queue, runtime and process collectors are there too.
	for _, name := range []string{"promoengine_db_max_open_connections", "promoengine_db_open_connections",
		"promoengine_db_in_use", "promoengine_db_idle", "promoengine_db_wait_count_total",
		"promoengine_db_wait_duration_seconds_total", "promoengine_jobs_queued",
		"promoengine_jobs_oldest_queued_age_seconds", "go_goroutines", "process_cpu_seconds_total",
		`promoengine_publications_total{result="SUCCESS"}`, `promoengine_redemptions_total{result="FAILURE"}`,
		"promoengine_redemption_rollbacks_total"} {
		if _, ok := got[name]; !ok {
			t.Errorf("metrics lack %s", name)
		}
	}
	if got["promoengine_db_open_connections"] < 1 {
		t.Errorf("promoengine_db_open_connections = %v, want ≥ 1", got["promoengine_db_open_connections"])
	}
	if !strings.Contains(text, "go_build_info{") {
		t.Error("metrics lack go_build_info")
	}
}

func TestMetricsCountGraphQLOperations(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for range 2 {
		if r := e.GraphQL(app, `query CampaignCount { campaigns { totalCount } }`, nil); len(r.Errors) > 0 {
			t.Fatalf("named query: %v", r.Errors)
		}
	}
	if r := e.GraphQL(app, `{ campaigns { totalCount } }`, nil); len(r.Errors) > 0 {
		t.Fatalf("anonymous query: %v", r.Errors)
	}
	if r := e.GraphQL(app, `mutation PublishNowhere { publish(input: {campaign: {name: "nope"}, customer: {sourceID: "x"}}) { id } }`, nil); len(r.Errors) == 0 {
		t.Fatal("publishing from an unknown campaign succeeded")
	}
	if r := e.GraphQL(app, `query Broken { noSuchField }`, nil); len(r.Errors) == 0 {
		t.Fatal("invalid query succeeded")
	}

	got, _ := scrape(t, e, e.Server.URL)
	wantSeries(t, got, `promoengine_graphql_operations_total{operation="CampaignCount",outcome="ok"}`, 2)
	wantSeries(t, got, `promoengine_graphql_operations_total{operation="anonymous",outcome="ok"}`, 1)
	wantSeries(t, got, `promoengine_graphql_operations_total{operation="PublishNowhere",outcome="error"}`, 1)
	wantSeries(t, got, `promoengine_graphql_operations_total{operation="invalid",outcome="error"}`, 1)
	// The failed publication is counted by the use case, whatever the transport.
	wantSeries(t, got, `promoengine_publications_total{result="FAILURE"}`, 1)
	wantSeries(t, got, `promoengine_http_requests_total{method="POST",route="/graphql",status="200"}`, 4)
}

func TestMetricsCountCommittedBusinessOutcomes(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "promo", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100},
			"redemption": map[string]any{"quantity": 1}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/promo/vouchers", map[string]any{"code": "ONLY"}, app), http.StatusOK)

	got, _ := scrape(t, e, e.Server.URL)
	wantSeries(t, got, `promoengine_publications_total{result="SUCCESS"}`, 0)

	pub := map[string]any{"campaign": map[string]any{"name": "promo"}, "customer": map[string]any{"source_id": "alice"}}
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", pub, app), http.StatusOK)
	pub["customer"] = map[string]any{"source_id": "bob"} // no code left to publish
	if r := e.DoJSON(http.MethodPost, "/v1/publications", pub, app); r.Status == http.StatusOK {
		t.Fatalf("second publication of the only code: %s", r.Body)
	}
	// GraphQL publications are counted by the same hook.
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/promo/vouchers", map[string]any{"code": "SECOND"}, app), http.StatusOK)
	if r := e.GraphQL(app, `mutation { publish(input: {voucher: "SECOND", customer: {sourceID: "carol"}}) { id } }`, nil); len(r.Errors) > 0 {
		t.Fatalf("GraphQL publish: %v", r.Errors)
	}

	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "ONLY"}}, "customer": map[string]any{"source_id": "alice"},
	}, app), http.StatusOK)
	// The quantity is used up: a stored failed redemption.
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/ONLY/redemption", map[string]any{}, app), http.StatusBadRequest)
	// An unknown code stores nothing and counts nothing.
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/NOPE/redemption", map[string]any{}, app), http.StatusNotFound)
	parent := red["parent_redemption"].(map[string]any)["id"].(string)
	must(t, e.Do(http.MethodPost, "/v1/redemptions/"+parent+"/rollbacks", nil, app), http.StatusOK)

	got, _ = scrape(t, e, e.Server.URL)
	wantSeries(t, got, `promoengine_publications_total{result="SUCCESS"}`, 2)
	wantSeries(t, got, `promoengine_publications_total{result="FAILURE"}`, 1)
	wantSeries(t, got, `promoengine_redemptions_total{result="SUCCESS"}`, 1)
	wantSeries(t, got, `promoengine_redemptions_total{result="FAILURE"}`, 1)
	wantSeries(t, got, `promoengine_redemption_rollbacks_total`, 1)
}

func TestMetricsJobQueueDepthAndLag(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	discountCampaign(t, e, "bulk", "####", "0123456789", nil)
	got, _ := scrape(t, e, e.Server.URL)
	wantSeries(t, got, "promoengine_jobs_queued", 0)
	wantSeries(t, got, "promoengine_jobs_oldest_queued_age_seconds", 0)

	must(t, e.Do(http.MethodPost, "/v1/campaigns/bulk/vouchers?vouchers_count=5", nil, app), http.StatusAccepted)
	time.Sleep(20 * time.Millisecond)
	got, _ = scrape(t, e, e.Server.URL)
	wantSeries(t, got, "promoengine_jobs_queued", 1)
	if age := got["promoengine_jobs_oldest_queued_age_seconds"]; age <= 0 || age > 60 {
		t.Errorf("oldest queued age = %v", age)
	}

	if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("running the job: %v %v", worked, err)
	}
	got, _ = scrape(t, e, e.Server.URL)
	wantSeries(t, got, "promoengine_jobs_queued", 0)
	wantSeries(t, got, "promoengine_jobs_oldest_queued_age_seconds", 0)
}

func TestMetricsOnASeparateListener(t *testing.T) {
	metrics := rest.NewMetrics()
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.Metrics, o.MetricsElsewhere = metrics, true })
	// The main router does not answer /metrics …
	must(t, e.Do(http.MethodGet, rest.MetricsPath, nil, nil), http.StatusNotFound)
	// … the caller's listener does, with the main router's requests.
	side := httptest.NewServer(metrics.Handler())
	defer side.Close()
	got, _ := scrape(t, e, side.URL)
	wantSeries(t, got, `promoengine_http_requests_total{method="GET",route="unmatched",status="404"}`, 1)
	if _, ok := got["promoengine_db_open_connections"]; !ok {
		t.Error("the separate listener lacks the pool metrics")
	}
	// A Metrics serves one router.
	if _, err := rest.NewRouter(rest.Options{Client: e.DB.Client, Metrics: metrics}); err == nil {
		t.Error("a second router shares one Metrics")
	}
}

func TestRequestIDIsKeptWhenSaneAndReplacedOtherwise(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	generated := regexp.MustCompile(`^v-[0-9a-f]+$`)
	for _, id := range []string{"abc", "req-42.a_b:c", "0123456789abcdef0123456789abcdef", strings.Repeat("x", 128)} {
		r := e.Do(http.MethodGet, "/v1/campaigns/nope", nil, resttest.Merge(app, resttest.Headers{"X-Request-Id": id}))
		if got := r.Header.Get("X-Request-Id"); got != id {
			t.Errorf("X-Request-Id %q answered as %q", id, got)
		}
		if body := must(t, r, http.StatusNotFound); body["request_id"] != id {
			t.Errorf("error body request_id = %v, want %q", body["request_id"], id)
		}
	}
	for _, id := range []string{"", "has space", `"quoted"`, "semi;colon", "ü-nicode", strings.Repeat("x", 129), "a/b"} {
		r := e.Do(http.MethodGet, "/healthz", nil, resttest.Headers{"X-Request-Id": id})
		if got := r.Header.Get("X-Request-Id"); got == id || !generated.MatchString(got) {
			t.Errorf("X-Request-Id %q answered as %q, want a generated id", id, got)
		}
	}
	r := e.Do(http.MethodGet, "/healthz", nil, nil)
	if !generated.MatchString(r.Header.Get("X-Request-Id")) {
		t.Errorf("no X-Request-Id sent: answered %q", r.Header.Get("X-Request-Id"))
	}
}

// logBuffer collects log output written by the server's goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// requests returns the access log lines: path → level.
func (l *logBuffer) requests(t *testing.T) map[string]string {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(l.b.Bytes()))
	for {
		var line struct{ Level, Msg, Path string }
		if err := dec.Decode(&line); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatalf("log is not JSON lines: %v", err)
		}
		if line.Msg == "request" {
			out[line.Path] = line.Level
		}
	}
}

func TestProbesAreLoggedAtDebugLevel(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo} {
		t.Run(level.String(), func(t *testing.T) {
			var logs logBuffer
			e := resttest.NewWithOptions(t, func(o *rest.Options) {
				o.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: level}))
			})
			for _, path := range []string{"/healthz", "/readyz", rest.MetricsPath} {
				if r := e.Do(http.MethodGet, path, nil, nil); r.Status != http.StatusOK {
					t.Fatalf("%s: %d", path, r.Status)
				}
			}
			must(t, e.Do(http.MethodGet, "/v1/campaigns/nope", nil, resttest.App(e.Project)), http.StatusNotFound)
			var got map[string]string
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if got = logs.requests(t); got["/v1/campaigns/nope"] != "" {
					break
				}
			}
			if got["/v1/campaigns/nope"] != "INFO" {
				t.Errorf("API request logged as %q, want INFO", got["/v1/campaigns/nope"])
			}
			for _, path := range []string{"/healthz", "/readyz", rest.MetricsPath} {
				want := "DEBUG"
				if level == slog.LevelInfo {
					want = "" // not logged
				}
				if got[path] != want {
					t.Errorf("%s logged as %q, want %q", path, got[path], want)
				}
			}
		})
	}
}

func TestReadyzFailsWhileDraining(t *testing.T) {
	var draining atomic.Bool
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.Draining = draining.Load })
	must(t, e.Do(http.MethodGet, "/readyz", nil, nil), http.StatusOK)
	draining.Store(true)
	if body := must(t, e.Do(http.MethodGet, "/readyz", nil, nil), http.StatusServiceUnavailable); body["status"] != "draining" {
		t.Errorf("/readyz while draining: %v", body)
	}
	// Liveness and the API are unaffected: in-flight and late requests are served.
	must(t, e.Do(http.MethodGet, "/healthz", nil, nil), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "late"}, resttest.App(e.Project)), http.StatusOK)
	got, _ := scrape(t, e, e.Server.URL)
	wantSeries(t, got, `promoengine_http_requests_total{method="GET",route="/readyz",status="503"}`, 1)
}
