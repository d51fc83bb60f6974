// Package resttest runs the whole HTTP service against a per-test database
// (see entdbtest) and offers small helpers to call it through REST and
// GraphQL with a project's credentials.
package resttest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest"
)

// Env is a running service with one project.
type Env struct {
	T      testing.TB
	DB     *entdb.DB
	Server *httptest.Server
	// Project is the first project's credentials.
	Project graph.ProjectCredentials
	// Worker runs background jobs (polling every 10ms; see New).
	Worker *graph.Worker
	// URL is the database URL, for opening more connection pools on it.
	URL string
	log *slog.Logger
	// routes finds the route template of a request (see contract.go).
	routes routeMatcher
	// SkipContract turns off checking responses against the OpenAPI
	// document (contract.go) for the rest of the test.
	SkipContract bool
	// configure adjusts the router options of every server of the test
	// (see NewWithOptions); nil keeps the defaults.
	configure func(*rest.Options)
}

// New starts the service on a fresh database and creates one project. A
// background worker runs jobs for the whole test.
func New(t testing.TB) *Env {
	t.Helper()
	return NewWithOptions(t, nil)
}

// NewWithOptions is New with router options adjusted by configure (CORS
// origins, limits, switches) for every server the test starts.
func NewWithOptions(t testing.TB, configure func(*rest.Options)) *Env {
	t.Helper()
	e := newEnv(t, configure)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.Worker.Run(ctx) }()
	e.T.Cleanup(func() { stop(); <-done })
	return e
}

// NewWithoutWorker is New without the background worker: the test drives
// jobs itself (e.Worker.RunOnce, or its own workers).
func NewWithoutWorker(t testing.TB) *Env {
	t.Helper()
	return newEnv(t, nil)
}

func newEnv(t testing.TB, configure func(*rest.Options)) *Env {
	t.Helper()
	url := entdbtest.URL(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	e := &Env{T: t, URL: url, log: log, configure: configure}
	e.DB, e.Server = e.serve(true)
	db := e.DB
	e.Worker = &graph.Worker{Client: db.Client, Dialect: db.Dialect, Logger: log,
		Poll: 10 * time.Millisecond, BatchSize: 500}
	e.Project = e.NewProject("project A")
	return e
}

// serve opens a connection pool on the test database and serves the whole
// service over it.
func (e *Env) serve(migrate bool) (*entdb.DB, *httptest.Server) {
	e.T.Helper()
	ctx := context.Background()
	db, err := entdb.Open(ctx, e.URL)
	if err != nil {
		e.T.Fatalf("opening test database: %v", err)
	}
	e.T.Cleanup(func() { _ = db.Close() })
	if migrate {
		if err := db.Migrate(ctx); err != nil {
			e.T.Fatalf("migrating test database: %v", err)
		}
	}
	opts := rest.Options{
		Client: db.Client, SQLDB: db.SQL, Logger: e.log, Dialect: db.Dialect,
		PublishAdmission: graph.NewPublishAdmission(graph.DefaultPublishConcurrency),
		Ready:            func(ctx context.Context) error { return db.SQL.PingContext(ctx) },
	}
	if e.configure != nil {
		e.configure(&opts)
	}
	router, err := rest.NewRouter(opts)
	if err != nil {
		e.T.Fatalf("building router: %v", err)
	}
	if e.routes.engine == nil {
		e.routes = newRouteMatcher(router.Routes())
	}
	srv := httptest.NewServer(router)
	e.T.Cleanup(srv.Close)
	return db, srv
}

// AnotherServer starts a second instance of the service on the same
// database with its own connection pool, as a second server process would.
func (e *Env) AnotherServer() *httptest.Server {
	e.T.Helper()
	_, srv := e.serve(false)
	return srv
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimSpace(p)))
	return len(p), nil
}

// NewProject creates another project with its own application key.
func (e *Env) NewProject(name string) graph.ProjectCredentials {
	e.T.Helper()
	var creds graph.ProjectCredentials
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		var err error
		creds, err = graph.CreateProject(ctx, name, "", "")
		return err
	})
	if err != nil {
		e.T.Fatalf("creating project: %v", err)
	}
	return creds
}

// Response is a decoded HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as a JSON object.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object (%d): %s", r.Status, r.Body)
	}
	return m
}

// Headers are the credentials (and anything else) sent with a request.
type Headers map[string]string

// App returns the application-key headers of creds.
func App(creds graph.ProjectCredentials) Headers {
	return Headers{"X-App-Id": creds.AppID, "X-App-Token": creds.AppToken}
}

// Do sends a request with a raw body (nil for none) and the given headers.
// A JSON content type is always sent, as the official SDKs do.
func (e *Env) Do(method, path string, body []byte, h Headers) Response {
	e.T.Helper()
	return e.DoAt(e.Server.URL, method, path, body, h)
}

// DoAt is Do against the server at base (see AnotherServer).
func (e *Env) DoAt(base, method, path string, body []byte, h Headers) Response {
	e.T.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		e.T.Fatalf("building request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.T.Fatalf("reading response: %v", err)
	}
	e.checkContract(method, path, resp.StatusCode, resp.Header, b)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Form sends form-encoded parameters (the OAuth endpoints' encoding).
func (e *Env) Form(path string, form url.Values, h Headers) Response {
	e.T.Helper()
	req, err := http.NewRequest(http.MethodPost, e.Server.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		e.T.Fatalf("building request: %v", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.T.Fatalf("reading response: %v", err)
	}
	e.checkContract(http.MethodPost, path, resp.StatusCode, resp.Header, b)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Token issues an OAuth access token with the given key and scope, failing
// the test when that does not work.
func (e *Env) Token(h Headers, scope string) string {
	e.T.Helper()
	resp := e.Form("/v1/oauth/token", url.Values{"grant_type": {"client_credentials"}, "scope": {scope}}, h)
	if resp.Status != http.StatusOK {
		e.T.Fatalf("issuing OAuth token: %d %s", resp.Status, resp.Body)
	}
	tok, _ := resp.JSON(e.T)["access_token"].(string)
	return tok
}

// Bearer returns the headers that authenticate with an OAuth token.
func Bearer(token string) Headers { return Headers{"Authorization": "Bearer " + token} }

// NewManagementKey stores a management key and returns its headers.
func (e *Env) NewManagementKey() Headers {
	e.T.Helper()
	var mk graph.ManagementCredentials
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		var err error
		mk, err = graph.CreateManagementKey(ctx, "", "")
		return err
	})
	if err != nil {
		e.T.Fatalf("creating management key: %v", err)
	}
	return Headers{"X-Management-Id": mk.ManagementID, "X-Management-Token": mk.ManagementToken}
}

// Merge returns the union of header sets (later ones win).
func Merge(hs ...Headers) Headers {
	out := Headers{}
	for _, h := range hs {
		for k, v := range h {
			out[k] = v
		}
	}
	return out
}

// DoJSON sends v encoded as JSON.
func (e *Env) DoJSON(method, path string, v any, h Headers) Response {
	e.T.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		e.T.Fatalf("encoding body: %v", err)
	}
	return e.Do(method, path, b, h)
}

// GraphQLResponse is a decoded GraphQL response.
type GraphQLResponse struct {
	Status int
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// GraphQL posts a query with variables to /graphql.
func (e *Env) GraphQL(h Headers, query string, vars map[string]any) GraphQLResponse {
	e.T.Helper()
	resp := e.DoJSON(http.MethodPost, "/graphql", map[string]any{"query": query, "variables": vars}, h)
	var out GraphQLResponse
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		e.T.Fatalf("GraphQL response is not JSON (%d): %s", resp.Status, resp.Body)
	}
	out.Status = resp.Status
	return out
}

// WaitForJob polls GET /v1/async-actions/{id} until the job has ended and
// returns its final state.
func (e *Env) WaitForJob(h Headers, id string) map[string]any {
	e.T.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp := e.Do(http.MethodGet, "/v1/async-actions/"+id, nil, h)
		if resp.Status != http.StatusOK {
			e.T.Fatalf("GET async action %s: %d %s", id, resp.Status, resp.Body)
		}
		job := resp.JSON(e.T)
		if s := job["status"]; s == "DONE" || s == "FAILED" {
			return job
		}
		if time.Now().After(deadline) {
			e.T.Fatalf("job %s did not finish: %v", id, job)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Client returns the client-side key headers of creds as a browser page at
// origin sends them.
func Client(creds graph.ProjectCredentials, origin string) Headers {
	return Headers{"X-Client-Application-Id": creds.ClientAppID, "X-Client-Token": creds.ClientAppToken, "Origin": origin}
}
