package rest

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
	"github.com/promoengine/promoengine/graph/webhook"
)

// RequestIDHeader carries the request id back to the caller.
const RequestIDHeader = "X-Request-Id"

// serverScope is what every request's context carries that is the same
// for the whole router: the ent client and its dialect, the caches of
// application keys, project rules and qualification tier snapshots, the
// admission of single-statement writes, the metrics observer and, when
// configured, the webhook target policy.
type serverScope struct {
	Client    *ent.Client
	Dialect   string
	Admission *graph.Admission
	Tiers     tiersnapshot.TierSnapshotLimits
	Observer  graph.Observer // nil: none
	// DenyPrivateWebhooks makes webhook target URLs set through a request
	// refuse private and loopback addresses (Options.WebhookDenyPrivate),
	// resolving names with Resolver (nil: net.DefaultResolver).
	DenyPrivateWebhooks bool
	Resolver            webhook.Resolver
}

// values returns a context holding the scope's values, made once per
// router (each cache is the router's).
func (s serverScope) values() context.Context {
	ctx := entdb.WithDialect(ent.NewContext(context.Background(), s.Client), s.Dialect)
	ctx = access.WithAppKeyCache(ctx, access.NewAppKeyCache(access.AppKeyCacheTTL))
	ctx = stacking.WithProjectRulesCache(ctx, stacking.NewProjectRulesCache(access.AppKeyCacheTTL))
	ctx = graph.WithAdmission(ctx, s.Admission)
	ctx = tiersnapshot.WithTierSnapshots(ctx, tiersnapshot.NewTierSnapshots(s.Tiers))
	if s.Observer != nil {
		ctx = graph.WithObserver(ctx, s.Observer)
	}
	if s.DenyPrivateWebhooks {
		ctx = webhook.WithWebhookResolver(webhook.WithWebhookTargetsDenyPrivate(ctx), s.Resolver)
	}
	return ctx
}

// scopedContext is a request's context with the server scope's values: a
// value is looked up among them first, then in the request's own context
// (net/http's, the tracing span's), which gives the deadline, the
// cancellation and everything else. Values added later (the viewer, a
// transaction's client) wrap it and come first. One allocation per
// request where each value was a context.WithValue (nine of them, with
// five copies of the http.Request, ~2.4 KB per request).
type scopedContext struct {
	context.Context                 // the request's own context
	values          context.Context // serverScope.values
}

func (c *scopedContext) Value(key any) any {
	if v := c.values.Value(key); v != nil {
		return v
	}
	return c.Context.Value(key)
}

// withRequest gives every request an id (returned in X-Request-Id and in
// error bodies), the logger, the server scope's values (the ent client and
// its dialect, ...) in its context and the request deadline (timeout ≤ 0:
// none; see deadline.go). The caller's X-Request-Id is kept when it is a
// sane token (graph.ValidRequestID), so one id follows a request through
// proxies and services; otherwise a new one is made.
func withRequest(scope serverScope, log *slog.Logger, timeout time.Duration) gin.HandlerFunc {
	values := scope.values()
	return func(c *gin.Context) {
		id := c.GetHeader(RequestIDHeader)
		if !graph.ValidRequestID(id) {
			id = "v-" + pulid.Hex(9)
		}
		c.Set(requestIDKey, id)
		c.Set(loggerKey, log)
		c.Header(RequestIDHeader, id)
		ctx := graph.WithRequestID(&scopedContext{Context: c.Request.Context(), values: values}, id)
		if timeout > 0 && !noDeadlineRoutes[c.FullPath()] {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

// accessLog writes one structured line per request, at debug level for
// health probes and metrics scrapes (they come every few seconds) and at
// info for the rest. It never logs headers or bodies, so no credential
// reaches the log.
func accessLog(c *gin.Context) {
	start := time.Now()
	c.Next()
	log := logger(c)
	level := slog.LevelInfo
	if isProbe(c.Request.URL.Path) {
		level = slog.LevelDebug
	}
	if !log.Enabled(c.Request.Context(), level) {
		return
	}
	attrs := []any{
		"request_id", requestID(c),
		"method", c.Request.Method,
		"path", c.Request.URL.Path,
		"route", c.FullPath(),
		"status", c.Writer.Status(),
		"duration_ms", float64(time.Since(start).Microseconds()) / 1000,
		"bytes", c.Writer.Size(),
	}
	if v, ok := viewer.FromContext(c.Request.Context()); ok {
		attrs = append(attrs, "project_id", v.ProjectID, "app_id", v.AppID)
		if v.TokenID != "" {
			attrs = append(attrs, "oauth_token_id", v.TokenID)
		}
	}
	if ch := c.GetHeader("X-Voucherify-Channel"); ch != "" {
		attrs = append(attrs, "channel", ch)
	}
	log.Log(c.Request.Context(), level, "request", attrs...)
}

// isProbe reports the paths of health checks and metrics scrapes.
func isProbe(path string) bool {
	return path == "/healthz" || path == "/readyz" || path == MetricsPath
}

// recoverPanics turns a panic into a logged 500 with the error object.
func recoverPanics(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			logger(c).ErrorContext(c.Request.Context(), "panic", "request_id", requestID(c), "panic", p)
			renderError(c, apperr.Internal())
		}
	}()
	c.Next()
}
