// Package resttest runs the whole HTTP service against a per-test database
// (see entdbtest) and offers small helpers to call it through REST and
// GraphQL with a project's credentials.
package resttest

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/rest"
)

// Env is a running service with one project.
type Env struct {
	T      testing.TB
	DB     *entdb.DB
	Server *httptest.Server
	// Project is the first project's credentials.
	Project access.ProjectCredentials
	// Worker runs background jobs (polling every 10ms; see New).
	Worker *job.Worker
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
	// dbOpts open every server's pool (see NewWithDB).
	dbOpts entdb.Options
}

// RoomyTimeouts are the database timeouts of New's servers, and
// RoomyRequestTimeout their request deadline: far above the service's
// defaults (5 s, 2 s, 5 s), so that a test asserting what concurrent
// requests do is not failed by a deadline that a starved CI machine (two
// test passes at once under the race detector) missed. Tests of the
// deadlines themselves set their own (NewWithDB and configure).
var RoomyTimeouts = entdb.Options{StatementTimeout: 30 * time.Second, LockTimeout: 20 * time.Second}

// RoomyRequestTimeout: see RoomyTimeouts.
const RoomyRequestTimeout = 30 * time.Second

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
	return NewWithDB(t, entdbtest.MigratedURL(t), RoomyTimeouts, configure)
}

// NewWithDB is NewWithOptions on the database at url (from
// entdbtest.MigratedURL or URL, possibly through an entdbtest.Proxy),
// whose pools open with dbOpts (timeouts, pool sizes).
func NewWithDB(t testing.TB, url string, dbOpts entdb.Options, configure func(*rest.Options)) *Env {
	t.Helper()
	e := newEnv(t, url, dbOpts, configure)
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
	return newEnv(t, entdbtest.MigratedURL(t), RoomyTimeouts, nil)
}

func newEnv(t testing.TB, url string, dbOpts entdb.Options, configure func(*rest.Options)) *Env {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// A fuzz target's f must not be written to while its inputs run, so a
	// fuzzing service does not log to the test.
	if _, fuzzing := t.(*testing.F); testing.Verbose() && !fuzzing {
		log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	e := &Env{T: t, URL: url, log: log, configure: configure, dbOpts: dbOpts}
	e.DB, e.Server = e.serve(true)
	db := e.DB
	// The periodic sweeps (the daily points job, the bin's purge) are not
	// run by the background worker: a sweep run at its start, late on a
	// loaded host, raced the tests that run the daily job at their own
	// clock (a segment tier recorded before the test's run 0).
	e.Worker = &job.Worker{Client: db.Jobs, Dialect: db.Dialect, Logger: log,
		Poll: 10 * time.Millisecond, BatchSize: 500, NoSweeps: true}
	e.Project = e.NewProject("project A")
	return e
}

// serve opens a connection pool on the test database and serves the whole
// service over it.
func (e *Env) serve(migrate bool) (*entdb.DB, *httptest.Server) {
	e.T.Helper()
	ctx := context.Background()
	db, err := entdb.OpenWith(ctx, e.URL, e.dbOpts)
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
		Admission:      graph.NewAdmission(graph.DefaultDBConcurrency),
		Ready:          func(ctx context.Context) error { return db.SQL.PingContext(ctx) },
		RequestTimeout: RoomyRequestTimeout,
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
func (e *Env) NewProject(name string) access.ProjectCredentials {
	e.T.Helper()
	var creds access.ProjectCredentials
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		var err error
		creds, err = access.CreateProject(ctx, name, "", "")
		return err
	})
	if err != nil {
		e.T.Fatalf("creating project: %v", err)
	}
	return creds
}
