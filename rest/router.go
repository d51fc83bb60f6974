// Package rest is the Gin HTTP layer: it serves the real service's REST
// paths (translating its JSON into the same resolver calls GraphQL makes),
// the GraphQL endpoint and playground, and health checks.
package rest

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest/campaigns"
	"github.com/promoengine/promoengine/rest/catalog"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/locations"
	"github.com/promoengine/promoengine/rest/loyaltyv1"
	"github.com/promoengine/promoengine/rest/loyaltyv2"
	"github.com/promoengine/promoengine/rest/management"
	"github.com/promoengine/promoengine/rest/openapi"
	"github.com/promoengine/promoengine/rest/promotions"
	"github.com/promoengine/promoengine/rest/referrals"
	"github.com/promoengine/promoengine/rest/rewards"
	"github.com/promoengine/promoengine/rest/segments"
	"github.com/promoengine/promoengine/rest/templates"
	"github.com/promoengine/promoengine/rest/validationrules"
	voucherarea "github.com/promoengine/promoengine/rest/vouchers"
)

// Options configure the router.
type Options struct {
	// Client is the ent client every request starts from.
	Client *ent.Client
	// Dialect is the client's SQL dialect (entdb.DB.Dialect).
	Dialect string
	// Ready reports whether the database is reachable (GET /readyz).
	Ready func(context.Context) error
	// Logger receives access and error logs.
	Logger *slog.Logger
	// TrustedProxies are the addresses (IPs or CIDRs) of reverse proxies
	// whose X-Forwarded-For is believed when finding the client address
	// that IP allow-lists check. Empty: the TCP peer is the client.
	TrustedProxies []string
	// PublicURL is the service's external base URL, for absolute links in
	// responses (asset images). Empty: the scheme and host of each request.
	PublicURL string
	// TierSnapshotLimits bound the qualifications' in-memory tier
	// snapshots (nil: tiersnapshot.DefaultTierSnapshotLimits).
	TierSnapshotLimits *tiersnapshot.TierSnapshotLimits
	// Admission bounds how many single-statement publications and
	// validations run on the database at once; nil sets no bound.
	Admission *graph.Admission
	// CORSOrigins are the browser origins that may call GraphQL and the
	// server API (PROMO_CORS_ORIGINS); empty: none. The client API's
	// origins are each project's client_trusted_domains.
	CORSOrigins []string
	// RateLimit is how many requests per minute one server-side key (with
	// the OAuth tokens it issued) may make on /v1, /v2 and /graphql, shared
	// by all processes on the database (see ratelimit.go): 0 means
	// DefaultRateLimit, negative no limit.
	RateLimit int
	// ClientRateLimit is the same for one client-side key on /client/v1:
	// 0 means DefaultClientRateLimit, negative no limit.
	ClientRateLimit int
	// RateLimitBlock is the most requests of one key a process reserves
	// from the shared count at once (see ratelimit.go): 0 or negative means
	// 1/20 of the limit; 1 reserves for every request (a database round
	// trip per request: tests).
	RateLimitBlock int
	// DisableGraphQLIntrospection refuses __schema and __type queries on
	// /graphql; the zero value answers them.
	DisableGraphQLIntrospection bool
	// WebhookDenyPrivate refuses webhook target URLs on loopback, private
	// and other non-public addresses, on every route that can set them
	// (PROMO_WEBHOOK_ALLOW_PRIVATE=false, the server's default: an
	// installation may host several projects); the zero value allows them
	// (tests, embedding).
	WebhookDenyPrivate bool
	// WebhookResolver resolves webhook target host names when
	// WebhookDenyPrivate checks them; nil: net.DefaultResolver.
	WebhookResolver webhook.Resolver
	// SQLDB is the connection pool under Client, for the promoengine_db_*
	// pool metrics; nil leaves them out.
	SQLDB *sql.DB
	// Metrics collects the Prometheus metrics (see metrics.go); nil: the
	// router makes its own registry.
	Metrics *Metrics
	// MetricsElsewhere keeps GET /metrics off the router (it answers 404):
	// the caller serves Metrics.Handler() on another listener
	// (PROMO_METRICS_ADDR). The zero value serves it here, without
	// credentials.
	MetricsElsewhere bool
	// Tracing gives every request an OpenTelemetry server span and every
	// GraphQL operation a span (tracing.go); the caller sets the global
	// tracer provider. Off: no tracing middleware at all.
	Tracing bool
	// RequestTimeout bounds each request (PROMO_REQUEST_TIMEOUT, see
	// deadline.go): 0 means DefaultRequestTimeout, negative none.
	RequestTimeout time.Duration
	// ReadyTimeout bounds /readyz's database ping: 0 means
	// DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// Draining reports that the process is shutting down: /readyz answers
	// 503 {"status":"draining"} so load balancers stop sending traffic,
	// while every request that still arrives is served. nil: never.
	Draining func() bool
}

// tierSnapshotLimits resolves TierSnapshotLimits.
func (o Options) tierSnapshotLimits() tiersnapshot.TierSnapshotLimits {
	if o.TierSnapshotLimits != nil {
		return *o.TierSnapshotLimits
	}
	return tiersnapshot.DefaultTierSnapshotLimits
}

// requestTimeout resolves RequestTimeout (0: none).
func (o Options) requestTimeout() time.Duration {
	switch {
	case o.RequestTimeout < 0:
		return 0
	case o.RequestTimeout == 0:
		return DefaultRequestTimeout
	}
	return o.RequestTimeout
}

// readyTimeout resolves ReadyTimeout.
func (o Options) readyTimeout() time.Duration {
	if o.ReadyTimeout <= 0 {
		return DefaultReadyTimeout
	}
	return o.ReadyTimeout
}

// NewRouter returns the HTTP handler of the whole service.
func NewRouter(opts Options) (*gin.Engine, error) {
	useResponseCodec() // json_codec.go
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := r.SetTrustedProxies(opts.TrustedProxies); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	// Match routes on the raw path and decode parameters once, so codes and
	// names containing %2F, %25 or spaces reach handlers intact.
	r.UseRawPath = true
	r.UnescapePathValues = true
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	metrics, err := opts.metrics()
	if err != nil {
		return nil, err
	}
	if opts.Tracing {
		r.Use(traceRequests) // first: the span covers the whole request
	}
	r.Use(withRequest(serverScope{Client: opts.Client, Dialect: opts.Dialect, Admission: opts.Admission,
		Tiers: opts.tierSnapshotLimits(), Observer: metrics,
		DenyPrivateWebhooks: opts.WebhookDenyPrivate, Resolver: opts.WebhookResolver}, opts.Logger, opts.requestTimeout()),
		metrics.instrument, accessLog, recoverPanics)
	trustedOrigins := access.NewTrustedOrigins(access.TrustedOriginsTTL)
	cors, err := newCORSPolicy(opts.CORSOrigins, trustedOrigins)
	if err != nil {
		return nil, fmt.Errorf("CORS origins: %w", err)
	}
	// CORS first, so a browser can read the refusals that follow.
	r.Use(cors.handle, limitHeaders)
	rateLimit, clientRateLimit := newRateLimiters(opts)
	r.Use(rateLimit.install)

	r.NoRoute(noEndpoint)
	r.NoMethod(func(c *gin.Context) {
		renderError(c, apperr.New(http.StatusMethodNotAllowed, "method_not_allowed", "Method not allowed",
			"Method "+c.Request.Method+" is not allowed on "+c.Request.URL.Path))
	})

	r.GET("/healthz", func(c *gin.Context) { c.PureJSON(http.StatusOK, gin.H{"status": "ok"}) })
	r.GET("/readyz", func(c *gin.Context) {
		if opts.Draining != nil && opts.Draining() {
			c.PureJSON(http.StatusServiceUnavailable, gin.H{"status": "draining"})
			return
		}
		if err := pingWithin(c.Request.Context(), opts.readyTimeout(), opts.Ready); err != nil {
			logger(c).WarnContext(c.Request.Context(), "not ready", "error", err.Error())
			c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable"})
			return
		}
		c.PureJSON(http.StatusOK, gin.H{"status": "ok"})
	})
	if !opts.MetricsElsewhere {
		r.GET(MetricsPath, gin.WrapH(metrics.Handler()))
	}

	// The API's description, no credentials (rest/openapi).
	r.GET("/openapi.json", gin.WrapH(openapi.Handler(openapi.Options{Scopes: scopesFor})))

	r.GET("/playground", servePlayground)
	r.GET("/playground/assets/*file", servePlaygroundAsset)

	// One resolver for the whole router: GraphQL, REST and management
	// handlers call the same instance.
	root := graph.NewResolver()
	gql := graph.NewHandler(graph.HandlerOptions{Logger: opts.Logger, RequestID: graph.RequestIDFromContext,
		Introspection: !opts.DisableGraphQLIntrospection, Metrics: metrics.graphql, Resolver: root, Tracing: opts.Tracing})
	gqlAuth := authenticate(appKeysOrBearer, renderGraphQLError)
	r.GET("/graphql", limitGraphQLBody, gqlAuth, gin.WrapH(gql))
	r.POST("/graphql", limitGraphQLBody, gqlAuth, gin.WrapH(gql))
	// The management area of the same graph, with management keys.
	r.GET("/management/graphql", limitGraphQLBody, management.RequireGraphQL, gin.WrapH(gql))
	r.POST("/management/graphql", limitGraphQLBody, management.RequireGraphQL, gin.WrapH(gql))
	for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
		r.Handle(method, "/graphql", graphQLMethodNotAllowed)
	}

	// /v1: application keys; routes that also take an OAuth bearer token
	// (scoped by scopeTable) say so. /v2 routes take both (bearerAndAppKeys).
	v1 := r.Group("/v1")
	keys, keysOrBearer := requireAppKeys(renderError), authenticate(appKeysOrBearer, renderError)

	oauth := oauthHandlers{root}
	v1.POST("/oauth/token", keys, oauth.issue)
	v1.POST("/oauth/introspect", keys, oauth.introspect)
	v1.POST("/oauth/token/revoke", keys, oauth.revoke)

	categories.Register(v1, keysOrBearer, root)
	catalog.Register(v1, keysOrBearer, root)    // products, SKUs, product collections
	promotions.Register(v1, keysOrBearer, root) // tiers and stacks
	vouchers := voucherHandlers{root: root, publicURL: strings.TrimRight(opts.PublicURL, "/")}
	webhook.SetWebhookRenderer(webhookRenderer(vouchers))       // webhook payloads in these shapes
	voucherarea.Register(v1, keysOrBearer, vouchers.renderer()) // and a campaign's codes and transactions
	v1.GET("/async-actions", keysOrBearer, vouchers.asyncActions)
	v1.GET("/async-actions/:id", keysOrBearer, vouchers.asyncAction)
	publications := publicationHandlers{vouchers}
	v1.POST("/publications", keysOrBearer, publications.create)
	v1.GET("/publications/create", keysOrBearer, publications.createFromQuery)
	v1.GET("/publications", keysOrBearer, publications.list)
	v1.GET("/vouchers/:code/publications", keysOrBearer, publications.voucherPublications)
	customers := customerHandlers{root}
	registerCustomers(v1, keysOrBearer, customers)
	registerBulkImports(v1, keysOrBearer, customers, vouchers)
	v1.GET("/customers/:customerId/activities", keysOrBearer, customers.activities)
	v1.GET("/customers/:customerId/activity", keysOrBearer, customers.activity)
	v1.GET("/customers/:customerId/redeemables", keysOrBearer, customers.redeemables)
	events := eventHandlers{root}
	v1.POST("/metadata-schemas", keysOrBearer, events.createSchema)
	v1.GET("/metadata-schemas", keysOrBearer, events.listSchemas)
	v1.GET("/metadata-schemas/:resource", keysOrBearer, events.getSchema)
	v1.POST("/events", keysOrBearer, events.send)
	segments.Register(v1, keysOrBearer, root)
	exports := exportHandlers{vouchers: vouchers}
	campaigns.Register(v1, keysOrBearer, root, exports.startExport) // its transactions' export answers as exports do
	registerGenericExports(v1, keysOrBearer, exports)
	registerTrashBin(v1, keysOrBearer, trashBinHandlers{root})
	registerOrders(v1, keysOrBearer, orderHandlers{root: root, exports: exports})
	v1.POST("/vouchers/:code/balance", keysOrBearer, exports.balance)
	v1.POST("/vouchers/:code/transactions/export", keysOrBearer, exports.export)
	v1.GET("/exports/:id", keysOrBearer, exports.get)
	// Export files: no credentials; the signed, expiring token is one.
	v1.GET("/exports/:id/download", exports.download)

	registerRedemptions(v1, keysOrBearer, root, vouchers)
	rewards.Register(v1, keysOrBearer, root)
	referrals.Register(v1, keysOrBearer, root)
	registerPromotionLegacy(v1, keysOrBearer, redemptionHandlers{root: root, vouchers: vouchers})
	validationrules.Register(v1, keysOrBearer, root)
	templates.Register(v1, keysOrBearer, root)
	locations.Register(v1, keysOrBearer, root)
	registerConsents(v1, keysOrBearer, consentHandlers{root})
	loyaltyv2.Register(r, authenticate(bearerAndAppKeys, renderError), root)
	loyaltyv1.Register(v1, keysOrBearer, root, loyaltyV1Renderings(root, vouchers, exports)) // and the loyalty side of v1 rewards

	// Images of voucher codes: no credentials (the asset id is unguessable).
	r.GET("/v1/assets/qr/:id", serveAsset(graph.AssetQR))
	r.GET("/v1/assets/barcode/:id", serveAsset(graph.AssetBarcode))

	registerClientAPI(r, clientAccess{limiter: clientRateLimit}, clientHandlers{
		redemptions: redemptionHandlers{root: root, vouchers: vouchers}, publications: publicationHandlers{vouchers},
		events: events, customers: customers, vouchers: vouchers, promotionTiers: promotions.ListTiers(root)})
	registerQualifications(v1, keysOrBearer, r, clientAccess{limiter: clientRateLimit}, qualificationHandlers{root})
	registerClientConsents(r, clientAccess{limiter: clientRateLimit}, consentHandlers{root})
	registerLegacyQualifications(v1, keysOrBearer, vouchers)
	management.Register(r, root, trustedOrigins)
	return r, nil
}
