package rest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Rate limits (docs/security.md, "Rate limits"). Every authenticated
// request of the server API (/v1, /v2, /graphql) counts against its
// application key — an OAuth token against the key that issued it — and
// every request of the client API (/client/v1) against its client-side key
// (or the issuing key of its token, counted apart from that key's server
// API requests). Windows are fixed minutes of the wall clock, so every
// process agrees on them.
//
// A process admits a request only from quota it has already RESERVED from
// the shared count of the key's window (table rate_limit_windows): one
// conditional upsert adds a grant to the count only if the count stays
// within the limit (ratelimit_store.go), so the counts of all processes
// together never pass the limit. The process then admits from its granted
// tokens in memory, without a database round trip, and reserves again
// when they run out: one reservation in flight per key and process, the
// key's other requests wait for it. Tokens reserved and not used by the
// end of the window are lost.

const (
	// DefaultRateLimit is how many requests per minute one server-side
	// application key may make unless configured otherwise (the real
	// service's plan figure).
	DefaultRateLimit = 2000
	// DefaultClientRateLimit is how many requests per minute one client-side
	// key may make unless configured otherwise.
	DefaultClientRateLimit = 600

	// RateLimitLimitHeader and RateLimitRemainingHeader are answered on
	// every rate-limited request; the official SDKs read them
	// (getRateLimit, getRateLimitRemaining).
	RateLimitLimitHeader     = "X-Rate-Limit-Limit"
	RateLimitRemainingHeader = "X-Rate-Limit-Remaining"

	rateWindow = time.Minute
	// rateBlockShare: a reservation grants at most 1/rateBlockShare of the
	// limit (at least 1).
	rateBlockShare = 20
	// rateShrink: a reservation grants at most 1/rateShrink of what is
	// left of the limit as far as the process knows (at least 1), so
	// grants get smaller as the window fills and little is left unused.
	rateShrink = 4
	// rateReserveTimeout bounds one reservation; rateReserveBackoff is how
	// long a process limits on its own after a failed one.
	rateReserveTimeout = 2 * time.Second
	rateReserveBackoff = time.Second
	// rateLimiterKey is where the router leaves the server API's limiter
	// for authenticate.
	rateLimiterKey = "promoengine.rateLimiter"
)

// rateLimiter holds each key to limit requests per window, shared with
// the other processes on the database through store. Only keys that made
// a request in the current window are held in memory.
type rateLimiter struct {
	// kind prefixes the shared counter's key ("server:", "client:"), so a
	// key's server and client API requests are counted apart.
	kind string
	// noun names the key in errors.
	noun  string
	limit int64      // per window; <= 0: no limit
	block int64      // the most one reservation grants
	store *rateStore // nil: this process alone
	log   *slog.Logger
	now   func() time.Time

	mu      sync.Mutex
	window  int64 // Unix second at which the current window started
	keys    map[string]*rateCount
	retryAt time.Time // after a failed reservation: none before
}

// rateCount is one key's usage in the current window.
type rateCount struct {
	project string
	// tokens were reserved from the shared count and not used yet.
	tokens int64
	// shared is the shared count as of this process's last reservation:
	// every process's reservations (this one's tokens included).
	shared int64
	// exhausted: the shared count has reached the limit; nothing more can
	// be reserved in this window.
	exhausted bool
	// unshared were admitted while the shared table could not be reached
	// (or without one); they are added to the shared count by the next
	// reservation.
	unshared int64
	// reserving is closed when the reservation in flight ends; nil: none.
	reserving chan struct{}
}

// rateDecision is what a request learns from the limiter.
type rateDecision struct {
	limit, remaining int64
	retryAfter       int // seconds until the window ends, when refused
}

// newRateLimiters makes the server API's and the client API's limiters
// from the router options; they share one store.
func newRateLimiters(opts Options) (server, client *rateLimiter) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	var store *rateStore
	if opts.SQLDB != nil {
		store = newRateStore(opts.SQLDB, opts.Dialect == dialect.Postgres, log)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := store.ensure(ctx); err != nil {
			log.Warn("rate limits: shared table not created; limiting per process until it is", "error", err.Error())
		}
	}
	server = newRateLimiter("server", "application key", orDefault(opts.RateLimit, DefaultRateLimit), opts.RateLimitBlock, store, log)
	client = newRateLimiter("client", "client-side key", orDefault(opts.ClientRateLimit, DefaultClientRateLimit), opts.RateLimitBlock, store, log)
	return server, client
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// newRateLimiter makes a limiter of perMinute requests per key; block is
// the most one reservation grants (<= 0: perMinute/rateBlockShare).
func newRateLimiter(kind, noun string, perMinute, block int, store *rateStore, log *slog.Logger) *rateLimiter {
	b := int64(block)
	if b <= 0 {
		b = int64(perMinute) / rateBlockShare
	}
	return &rateLimiter{kind: kind, noun: noun, limit: int64(perMinute), block: max(1, b),
		store: store, log: log, now: time.Now, keys: map[string]*rateCount{}}
}

// install leaves the server API's limiter in the request for authenticate.
func (l *rateLimiter) install(c *gin.Context) { c.Set(rateLimiterKey, l) }

// serverRateLimiter is the limiter the router installed; nil: none.
func serverRateLimiter(c *gin.Context) *rateLimiter {
	v, _ := c.Get(rateLimiterKey)
	l, _ := v.(*rateLimiter)
	return l
}

// admit counts one request of key (of project) and answers the rate-limit
// headers. Over the limit it renders 429 too_many_requests with
// Retry-After and reports false. A nil or switched-off limiter admits
// everything and answers no headers.
func (l *rateLimiter) admit(c *gin.Context, project, key string, render func(*gin.Context, error)) bool {
	if l == nil || l.limit <= 0 {
		return true
	}
	d, ok := l.take(c.Request.Context(), project, key)
	h := c.Writer.Header()
	h.Set(RateLimitLimitHeader, strconv.FormatInt(d.limit, 10))
	h.Set(RateLimitRemainingHeader, strconv.FormatInt(d.remaining, 10))
	if ok {
		return true
	}
	e := apperr.New(http.StatusTooManyRequests, "too_many_requests", "Too many requests",
		fmt.Sprintf("This %s may make %d requests per minute; retry after %d s", l.noun, d.limit, d.retryAfter))
	e.RetryAfter = d.retryAfter
	h.Set("Retry-After", strconv.Itoa(d.retryAfter))
	render(c, e)
	return false
}
