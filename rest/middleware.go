package rest

import (
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
	"github.com/promoengine/promoengine/graph/redemption"
)

const (
	requestIDKey = "promoengine.request_id"
	loggerKey    = "promoengine.logger"
	// RequestIDHeader carries the request id back to the caller.
	RequestIDHeader = "X-Request-Id"
)

// withRequest gives every request an id (returned in X-Request-Id and in
// error bodies), the logger, and the ent client and its dialect in its
// context. The caller's X-Request-Id is kept when it is a sane token
// (graph.ValidRequestID), so one id follows a request through proxies and
// services; otherwise a new one is made.
func withRequest(client *ent.Client, dialect string, log *slog.Logger, admission *graph.Admission) gin.HandlerFunc {
	keys := access.NewAppKeyCache(access.AppKeyCacheTTL)
	rules := redemption.NewProjectRulesCache(access.AppKeyCacheTTL)
	return func(c *gin.Context) {
		id := c.GetHeader(RequestIDHeader)
		if !graph.ValidRequestID(id) {
			id = "v-" + pulid.Hex(9)
		}
		c.Set(requestIDKey, id)
		c.Set(loggerKey, log)
		c.Header(RequestIDHeader, id)
		ctx := graph.WithRequestID(c.Request.Context(), id)
		ctx = entdb.WithDialect(ent.NewContext(ctx, client), dialect)
		ctx = access.WithAppKeyCache(ctx, keys)
		ctx = redemption.WithProjectRulesCache(ctx, rules)
		ctx = graph.WithAdmission(ctx, admission)
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

// withTierSnapshots gives every request the server's qualification tier
// snapshots (graph/redemption tier_snapshot.go).
func withTierSnapshots(limits redemption.TierSnapshotLimits) gin.HandlerFunc {
	tiers := redemption.NewTierSnapshots(limits)
	return func(c *gin.Context) {
		c.Request = c.Request.WithContext(redemption.WithTierSnapshots(c.Request.Context(), tiers))
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

func requestID(c *gin.Context) string { return c.GetString(requestIDKey) }

func logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(loggerKey); ok {
		return l.(*slog.Logger)
	}
	return slog.Default()
}
