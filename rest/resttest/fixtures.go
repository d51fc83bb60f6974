package resttest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/job"
)

// Fixtures shared by rest's tests and the areas' (campaigns, custom
// events, webhooks, export downloads, requests released together on two
// servers, a job pass on two workers).

// TimestampRE matches the API's timestamps (milliseconds, UTC).
var TimestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// CreateCampaign creates a campaign in the environment's project and returns it.
func CreateCampaign(t testing.TB, e *Env, body map[string]any) map[string]any {
	t.Helper()
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns", body, App(e.Project))
	if resp.Status != http.StatusOK {
		t.Fatalf("create campaign: %d %s", resp.Status, resp.Body)
	}
	return resp.JSON(t)
}

// DefineEvent creates a custom event schema name with props.
func DefineEvent(t testing.TB, e *Env, h Headers, name string, props map[string]any) map[string]any {
	t.Helper()
	return Must(t, e.DoJSON(http.MethodPost, "/v1/metadata-schemas",
		map[string]any{"related_object": "event", "name": name, "properties": props}, h), http.StatusOK)
}

// HooksPath is the management path of the project's webhooks.
func HooksPath(e *Env) string {
	return "/management/v1/projects/" + e.Project.ProjectID + "/webhooks"
}

// CreateHook subscribes target to events and returns the webhook.
func CreateHook(t testing.TB, e *Env, mk Headers, target string, events ...string) map[string]any {
	t.Helper()
	return Must(t, e.DoJSON(http.MethodPost, HooksPath(e), map[string]any{"target_url": target, "events": events}, mk), http.StatusOK)
}

// Download fetches an export file's URL: through the harness (checked
// against the document) when it is the test server's, else directly.
func Download(t testing.TB, e *Env, rawURL string) (int, string) {
	t.Helper()
	if path, ok := strings.CutPrefix(rawURL, e.Server.URL); ok { // through the harness: checked against the document
		r := e.Do(http.MethodGet, path, nil, nil)
		return r.Status, string(r.Body)
	}
	resp, err := http.Get(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TwoServers starts the service and a second instance on the same database.
func TwoServers(t testing.TB) (*Env, Headers, []string) {
	t.Helper()
	if !entdbtest.IsPostgres() {
		t.Skip("PostgreSQL only (set " + entdbtest.EnvURL + "); SQLite serializes writers")
	}
	e := New(t)
	return e, App(e.Project), []string{e.Server.URL, e.AnotherServer().URL}
}

// Burst sends n POST requests at once, request i to servers[i%len(servers)];
// req gives each one's path and body (nil: no body). Bodies are encoded
// before the start signal so that the requests leave together.
func Burst(e *Env, servers []string, h Headers, n int, req func(i int) (string, any)) []Response {
	out := make([]Response, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		path, body := req(i)
		var b []byte
		if body != nil {
			b, _ = json.Marshal(body)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = e.DoAt(servers[i%len(servers)], http.MethodPost, path, b, h)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// Outcome is "200", or the status and error key: "400 quantity_exceeded".
func Outcome(r Response) string {
	if r.Status == http.StatusOK {
		return "200"
	}
	var body struct{ Key string }
	_ = json.Unmarshal(r.Body, &body)
	return fmt.Sprintf("%d %s", r.Status, body.Key)
}

// WantOutcomes checks how many responses had each outcome, printing the
// bodies of the unexpected ones (a 500 from a deadlock, say).
func WantOutcomes(t testing.TB, what string, resps []Response, want map[string]int) {
	t.Helper()
	got := map[string]int{}
	for _, r := range resps {
		got[Outcome(r)]++
		if _, ok := want[Outcome(r)]; !ok {
			t.Errorf("%s: unexpected response %d %s", what, r.Status, r.Body)
		}
	}
	if !maps.Equal(got, want) {
		t.Fatalf("%s: outcomes %v, want %v", what, got, want)
	}
}

// RunOnceOnTwoWorkers runs one job pass on the environment's worker and,
// at the same time, on a second worker of the same database (two
// processes claiming the queued jobs); each must find a job to work.
func RunOnceOnTwoWorkers(t testing.TB, e *Env) {
	t.Helper()
	second := &job.Worker{Client: e.Worker.Client, Dialect: e.Worker.Dialect, Logger: e.Worker.Logger, ID: "second"}
	var wg sync.WaitGroup
	for _, w := range []*job.Worker{e.Worker, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
				t.Errorf("worker %s: %v %v", w.ID, worked, err)
			}
		}()
	}
	wg.Wait()
}
