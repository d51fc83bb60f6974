package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest"
)

// shutdownGrace is how long in-flight requests may finish after a signal.
const shutdownGrace = 20 * time.Second

// serve runs the HTTP server until ctx is cancelled (SIGINT/SIGTERM), then
// drains in-flight requests.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c serveConfig
	if err := bindSettings(fs, getenv, c.settings()); err != nil {
		return err
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText(), "\nFlags of serve:\n")
		fs.PrintDefaults()
	}
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	cfg, pool := c.db, &c.pool
	log, err := cfg.logger(stderr)
	if err != nil {
		return err
	}
	tuneGC(getenv, log)
	if c.exportDir != "" {
		log.Warn("PROMO_EXPORT_DIR (--export-dir) is deprecated and ignored: export files are stored in the database, so any process serves any download; remove the setting",
			"export_dir", c.exportDir)
	}
	tracing, stopTracing, err := setupTracing(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer func() { _ = stopTracing(context.WithoutCancel(ctx)) }() // flushes the last spans
	dbOptions := pool.options(c.workers)
	dbOptions.Trace = tracing
	db, err := openAndMigrate(ctx, cfg, dbOptions, log)
	if err != nil {
		return err
	}
	defer db.Close()

	var boot *access.Bootstrapped
	err = db.WithAdvisoryLock(ctx, bootstrapLockKey, func() error {
		boot, err = access.Bootstrap(ctx, db.Client, access.BootstrapKeys{
			AppID: getenv("PROMO_BOOTSTRAP_APP_ID"), AppToken: getenv("PROMO_BOOTSTRAP_APP_TOKEN"),
			ManagementID: getenv("PROMO_BOOTSTRAP_MANAGEMENT_ID"), ManagementToken: getenv("PROMO_BOOTSTRAP_MANAGEMENT_TOKEN"),
		})
		return err
	})
	if err != nil {
		return err
	}
	if boot != nil {
		printBootstrap(stdout, boot, getenv)
	}

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", c.addr, err)
	}
	// draining turns /readyz to 503 from the shutdown signal on.
	var draining atomic.Bool
	metrics := rest.NewMetrics()
	router, err := rest.NewRouter(rest.Options{
		Client: db.Client, SQLDB: db.SQL, Logger: log, Dialect: db.Dialect, TrustedProxies: splitList(c.proxies), PublicURL: c.publicURL,
		Metrics: metrics, MetricsElsewhere: c.metricsAddr != "", Draining: draining.Load, Admission: graph.NewAdmission(c.dbConcurrency).AdmittingRedemptions(c.admitRedemptions),
		DisableGraphQLIntrospection: !c.graphqlIntrospection, CORSOrigins: splitList(c.corsOrigins), ClientRateLimit: c.clientRateLimit,
		WebhookDenyPrivate: !c.webhookAllowPrivate, RateLimit: c.rateLimit, RequestTimeout: pool.requestTimeout(), Tracing: tracing,
		Ready: func(ctx context.Context) error { return db.SQL.PingContext(ctx) },
	})
	if err != nil {
		_ = ln.Close()
		return err
	}
	var metricsSrv *http.Server
	if c.metricsAddr != "" {
		if metricsSrv, err = serveMetrics(c.metricsAddr, metrics, log); err != nil {
			_ = ln.Close()
			return err
		}
	}
	srv := &http.Server{
		Handler:           router,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// The hard cap on a request's header block, request line included
		// (net/http's default, stated): beyond it net/http answers a
		// plain-text 431 itself and the router never sees the request.
		// Below it the router refuses more than 64 KiB of header fields with
		// a 431 in the service's error shape (rest/header_limit.go).
		MaxHeaderBytes: 1 << 20,
	}
	log.Info("serving", "addr", ln.Addr().String(), "database", db.Dialect,
		"graphql", "/graphql", "playground", "/playground")

	// Background jobs stop with the server; committed progress is kept and
	// an interrupted job is handed back for any worker to resume.
	jobCtx, stopJobs := context.WithCancel(context.WithoutCancel(ctx))
	var jobsDone sync.WaitGroup
	for range c.workers {
		jobsDone.Add(1)
		go func() {
			defer jobsDone.Done()
			(&job.Worker{Client: db.Jobs, Dialect: db.Dialect, Logger: log,
				Webhooks: webhook.Settings{DenyPrivate: !c.webhookAllowPrivate, Timeout: c.webhookTimeout,
					Retention: keptFor(c.webhookRetention)}}).Run(jobCtx)
		}()
	}
	defer func() { stopJobs(); jobsDone.Wait() }()

	if c.pprofAddr != "" {
		go servePprof(c.pprofAddr, log)
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	// Readiness fails first; after the delay (for load balancers to notice)
	// the listener closes and in-flight requests finish.
	draining.Store(true)
	if c.shutdownDelay > 0 {
		log.Info("shutting down: /readyz reports draining; still serving", "delay", c.shutdownDelay.String())
		time.Sleep(c.shutdownDelay)
	}
	log.Info("shutting down: draining in-flight requests")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if metricsSrv != nil {
		_ = metricsSrv.Shutdown(sctx)
	}
	log.Info("stopped")
	return nil
}

// keptFor maps the retention setting to WebhookSettings.Retention, where 0
// is the default and negative keeps events for ever.
func keptFor(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
