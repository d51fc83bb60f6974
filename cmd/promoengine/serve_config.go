package main

import (
	"time"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest"
)

// serveConfig holds the settings of `serve`.
type serveConfig struct {
	db                                                 dbConfig
	addr, publicURL, exportDir, pprofAddr, metricsAddr string
	proxies, corsOrigins                               string
	workers, dbConcurrency, rateLimit, clientRateLimit int
	// admitRedemptions: PROMO_ADMIT_REDEMPTIONS.
	admitRedemptions                                bool
	shutdownDelay, webhookTimeout, webhookRetention time.Duration
	graphqlIntrospection, webhookAllowPrivate       bool
	pool                                            poolConfig
}

// settings declares serve's settings, the shared database ones first, in
// the README's order (the table of settings.go).
func (c *serveConfig) settings() []setting {
	s := c.db.settings()
	s = append(s,
		stringSetting(&c.addr, "PROMO_ADDR", "addr", ":8080", "listen address"),
		stringSetting(&c.publicURL, "PROMO_PUBLIC_URL", "public-url", "",
			"external base URL for absolute links (voucher image URLs), e.g. https://promo.example.com; unset: the scheme and host of each request"),
		intSetting(&c.workers, "PROMO_WORKERS", "workers", 2, "background job workers in this process; 0 disables"),
		intSetting(&c.dbConcurrency, "PROMO_DB_CONCURRENCY", "db-concurrency", graph.DefaultDBConcurrency,
			"single-statement publications and validations this process runs on the database at once; more wait their turn; 0 or negative: no limit"),
		boolSetting(&c.admitRedemptions, "PROMO_ADMIT_REDEMPTIONS", "admit-redemptions", true,
			"the one-statement redemption's look-up and write take PROMO_DB_CONCURRENCY's slots too, one statement at a time (a 99th percentile near twice the median); false: they run unadmitted"),
	)
	s = append(s, c.pool.settings()...)
	// Private webhook targets are refused by default: any installation can
	// host several projects (management API), and a target on a private
	// address would let one project reach the operator's network.
	return append(s,
		stringSetting(&c.pprofAddr, "PROMO_PPROF_ADDR", "pprof-addr", "",
			"serve Go profiling (net/http/pprof) on this separate address, e.g. 127.0.0.1:6060; unset: off"),
		stringSetting(&c.metricsAddr, "PROMO_METRICS_ADDR", "metrics-addr", "",
			"serve Prometheus /metrics on this separate address, e.g. 127.0.0.1:9464, and not on the main one; unset: /metrics on the main address, without credentials (block it at the proxy)"),
		durationSetting(&c.shutdownDelay, "PROMO_SHUTDOWN_DELAY", "shutdown-delay", 0,
			"on SIGTERM, keep serving this long with /readyz answering 503 before closing the listener, so load balancers that poll /readyz stop sending traffic first, e.g. 5s"),
		stringSetting(&c.exportDir, "PROMO_EXPORT_DIR", "export-dir", "",
			"deprecated and ignored (a warning is logged): export files are stored in the database"),
		stringSetting(&c.proxies, "PROMO_TRUSTED_PROXIES", "trusted-proxies", "",
			"comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For is believed for key IP allow-lists; unset: none"),
		stringSetting(&c.corsOrigins, "PROMO_CORS_ORIGINS", "cors-origins", "",
			"comma-separated browser origins allowed to call /graphql and the server API, e.g. https://admin.example.com; unset: none. The client API's origins are each project's client_trusted_domains"),
		intSetting(&c.rateLimit, "PROMO_RATE_LIMIT", "rate-limit", rest.DefaultRateLimit,
			"requests per minute one server-side key (with its OAuth tokens) may make on /v1, /v2 and /graphql, shared by all processes on the database; negative: no limit"),
		intSetting(&c.clientRateLimit, "PROMO_CLIENT_RATE_LIMIT", "client-rate-limit", rest.DefaultClientRateLimit,
			"requests per minute one client-side key may make on /client/v1, shared by all processes on the database; negative: no limit"),
		boolSetting(&c.webhookAllowPrivate, "PROMO_WEBHOOK_ALLOW_PRIVATE", "webhook-allow-private", false,
			"allow webhook target URLs on loopback, private and other non-public addresses; false: refused when set and when delivering; true for a single-tenant installation whose receivers are on its own network"),
		durationSetting(&c.webhookTimeout, "PROMO_WEBHOOK_TIMEOUT", "webhook-timeout", 5*time.Second,
			"time one webhook delivery attempt may take before it counts as failed (retried with back-off for 24 h)"),
		durationSetting(&c.webhookRetention, "PROMO_WEBHOOK_RETENTION", "webhook-retention", webhook.DefaultWebhookRetention,
			"how long delivered and failed webhook events and their delivery attempts are kept, e.g. 720h; 0 keeps them for ever"),
		boolSetting(&c.graphqlIntrospection, "PROMO_GRAPHQL_INTROSPECTION", "graphql-introspection", true,
			"answer GraphQL introspection (__schema, __type) on /graphql, as GraphiQL and code generators need; false refuses it"),
	)
}
