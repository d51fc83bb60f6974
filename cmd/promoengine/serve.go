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
	var cfg dbConfig
	cfg.bind(fs, getenv)
	addr := fs.String("addr", envOr(getenv, "PROMO_ADDR", ":8080"), "listen address (env PROMO_ADDR)")
	publicURL := fs.String("public-url", getenv("PROMO_PUBLIC_URL"),
		"external base URL for absolute links, e.g. https://promo.example.com (env PROMO_PUBLIC_URL; default: the request's host)")
	exportDir := fs.String("export-dir", getenv("PROMO_EXPORT_DIR"),
		"deprecated and ignored: export files are stored in the database (env PROMO_EXPORT_DIR)")
	pprofAddr := fs.String("pprof-addr", getenv("PROMO_PPROF_ADDR"),
		"serve Go profiling (net/http/pprof) on this separate address, e.g. 127.0.0.1:6060 (env PROMO_PPROF_ADDR; default off)")
	metricsAddr := fs.String("metrics-addr", getenv("PROMO_METRICS_ADDR"),
		"serve Prometheus /metrics on this separate address, e.g. 127.0.0.1:9090, and not on the main one (env PROMO_METRICS_ADDR; default: /metrics on the main address, without credentials)")
	defaultShutdownDelay, err := envDuration(getenv, "PROMO_SHUTDOWN_DELAY", 0)
	if err != nil {
		return err
	}
	shutdownDelay := fs.Duration("shutdown-delay", defaultShutdownDelay,
		"on SIGTERM, keep serving this long with /readyz answering 503 before closing the listener, so load balancers that poll /readyz stop sending traffic first, e.g. 5s (env PROMO_SHUTDOWN_DELAY; default 0s)")
	defaultWorkers, err := envInt(getenv, "PROMO_WORKERS", 2)
	if err != nil {
		return err
	}
	defaultDBConcurrency, err := envInt(getenv, "PROMO_DB_CONCURRENCY", graph.DefaultDBConcurrency)
	if err != nil {
		return err
	}
	workers := fs.Int("workers", defaultWorkers,
		"background job workers in this process (env PROMO_WORKERS; 0 disables)")
	dbConcurrency := fs.Int("db-concurrency", defaultDBConcurrency,
		"single-statement publications and validations this process runs on the database at once; more wait their turn (env PROMO_DB_CONCURRENCY; 0 or negative: no limit)")
	proxies := fs.String("trusted-proxies", getenv("PROMO_TRUSTED_PROXIES"),
		"comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For is believed for key IP allow-lists (env PROMO_TRUSTED_PROXIES; default none)")
	defaultIntrospection, err := envBool(getenv, "PROMO_GRAPHQL_INTROSPECTION", true)
	if err != nil {
		return err
	}
	introspection := fs.Bool("graphql-introspection", defaultIntrospection,
		"answer GraphQL introspection (__schema, __type) on /graphql, as GraphiQL and code generators need (env PROMO_GRAPHQL_INTROSPECTION; false refuses it)")
	corsOrigins := fs.String("cors-origins", getenv("PROMO_CORS_ORIGINS"),
		"comma-separated browser origins allowed to call /graphql and the server API, e.g. https://admin.example.com (env PROMO_CORS_ORIGINS; default none). The client API's origins are each project's client_trusted_domains")
	defaultRate, err := envInt(getenv, "PROMO_RATE_LIMIT", rest.DefaultRateLimit)
	if err != nil {
		return err
	}
	rate := fs.Int("rate-limit", defaultRate,
		"requests per minute one server-side key (with its OAuth tokens) may make on /v1, /v2 and /graphql, shared by all processes on the database (env PROMO_RATE_LIMIT; negative: no limit)")
	defaultClientRate, err := envInt(getenv, "PROMO_CLIENT_RATE_LIMIT", rest.DefaultClientRateLimit)
	if err != nil {
		return err
	}
	clientRate := fs.Int("client-rate-limit", defaultClientRate,
		"requests per minute one client-side key may make on /client/v1, shared by all processes on the database (env PROMO_CLIENT_RATE_LIMIT; negative: no limit)")
	// Private webhook targets are refused by default: any installation can
	// host several projects (management API), and a target on a private
	// address would let one project reach the operator's network.
	defaultWebhookPrivate, err := envBool(getenv, "PROMO_WEBHOOK_ALLOW_PRIVATE", false)
	if err != nil {
		return err
	}
	webhookPrivate := fs.Bool("webhook-allow-private", defaultWebhookPrivate,
		"allow webhook target URLs on loopback, private and other non-public addresses (env PROMO_WEBHOOK_ALLOW_PRIVATE; default false: refused when set and when delivering; set true for a single-tenant installation whose receivers are on its own network)")
	defaultWebhookTimeout, err := envDuration(getenv, "PROMO_WEBHOOK_TIMEOUT", 5*time.Second)
	if err != nil {
		return err
	}
	webhookTimeout := fs.Duration("webhook-timeout", defaultWebhookTimeout,
		"time one webhook delivery attempt may take before it counts as failed (env PROMO_WEBHOOK_TIMEOUT)")
	defaultWebhookRetention, err := envDuration(getenv, "PROMO_WEBHOOK_RETENTION", webhook.DefaultWebhookRetention)
	if err != nil {
		return err
	}
	webhookRetention := fs.Duration("webhook-retention", defaultWebhookRetention,
		"how long delivered and failed webhook events and their delivery attempts are kept after they were delivered or failed, e.g. 720h (env PROMO_WEBHOOK_RETENTION; 0 keeps them for ever)")
	var pool poolConfig
	if err := pool.bind(fs, getenv); err != nil {
		return err
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, usage, "\nFlags of serve:\n")
		fs.PrintDefaults()
	}
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	log, err := cfg.logger(stderr)
	if err != nil {
		return err
	}
	tuneGC(getenv, log)
	if *exportDir != "" {
		log.Warn("PROMO_EXPORT_DIR (--export-dir) is deprecated and ignored: export files are stored in the database, so any process serves any download; remove the setting",
			"export_dir", *exportDir)
	}
	db, err := openAndMigrate(ctx, cfg, pool.options(*workers), log)
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
		printBootstrap(stdout, boot)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", *addr, err)
	}
	// draining turns /readyz to 503 from the shutdown signal on.
	var draining atomic.Bool
	metrics := rest.NewMetrics()
	router, err := rest.NewRouter(rest.Options{
		Client: db.Client, SQLDB: db.SQL, Logger: log, Dialect: db.Dialect, TrustedProxies: splitList(*proxies), PublicURL: *publicURL,
		Metrics: metrics, MetricsElsewhere: *metricsAddr != "", Draining: draining.Load, Admission: graph.NewAdmission(*dbConcurrency),
		DisableGraphQLIntrospection: !*introspection, CORSOrigins: splitList(*corsOrigins), ClientRateLimit: *clientRate,
		WebhookDenyPrivate: !*webhookPrivate, RateLimit: *rate, RequestTimeout: pool.requestTimeout(),
		Ready: func(ctx context.Context) error { return db.SQL.PingContext(ctx) },
	})
	if err != nil {
		_ = ln.Close()
		return err
	}
	var metricsSrv *http.Server
	if *metricsAddr != "" {
		if metricsSrv, err = serveMetrics(*metricsAddr, metrics, log); err != nil {
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
	for range *workers {
		jobsDone.Add(1)
		go func() {
			defer jobsDone.Done()
			(&job.Worker{Client: db.Jobs, Dialect: db.Dialect, Logger: log,
				Webhooks: webhook.Settings{DenyPrivate: !*webhookPrivate, Timeout: *webhookTimeout,
					Retention: keptFor(*webhookRetention)}}).Run(jobCtx)
		}()
	}
	defer func() { stopJobs(); jobsDone.Wait() }()

	if *pprofAddr != "" {
		go servePprof(*pprofAddr, log)
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
	if *shutdownDelay > 0 {
		log.Info("shutting down: /readyz reports draining; still serving", "delay", shutdownDelay.String())
		time.Sleep(*shutdownDelay)
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
