package rest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
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
// process agrees on them. Each process counts locally and adds its counts
// to the shared table rate_limit_windows in batches (a flush: every
// second, or once a key has used 1/20 of its limit here since the last
// one), reading back the global counts; between flushes a key's usage is
// the global count of the last flush plus what this process has admitted
// since. No request waits for the database except the one that triggers a
// flush, once a period per process.

const (
	// DefaultRateLimit is how many requests per minute one server-side
	// application key may make unless configured otherwise (the real
	// service's plan figure).
	DefaultRateLimit = 2000
	// DefaultClientRateLimit is how many requests per minute one client-side
	// key may make unless configured otherwise.
	DefaultClientRateLimit = 600
	// DefaultRateLimitFlush is how often a process adds its local counts to
	// the shared table.
	DefaultRateLimitFlush = time.Second

	// RateLimitLimitHeader and RateLimitRemainingHeader are answered on
	// every rate-limited request; the official SDKs read them
	// (getRateLimit, getRateLimitRemaining).
	RateLimitLimitHeader     = "X-Rate-Limit-Limit"
	RateLimitRemainingHeader = "X-Rate-Limit-Remaining"

	rateWindow = time.Minute
	// rateEarlyShare: a key flushes early once it has counted 1/rateEarlyShare
	// of its limit in this process since the last flush.
	rateEarlyShare = 20
	// rateFlushTimeout bounds one flush; rateFlushBackoff is how long a
	// process limits on its own after a failed flush before trying again.
	rateFlushTimeout = 2 * time.Second
	rateFlushBackoff = time.Second
	// rateFlushBatch is how many keys one upsert statement carries.
	rateFlushBatch = 200
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
	limit int64 // per window; <= 0: no limit
	// interval is the flush period; negative: flush before every decision.
	interval time.Duration
	early    int64      // flush once a key has this many unflushed requests
	store    *rateStore // nil: this process alone
	log      *slog.Logger
	now      func() time.Time

	flushMu sync.Mutex // one flush at a time

	mu        sync.Mutex
	window    int64 // Unix second at which the current window started
	keys      map[string]*rateCount
	lastFlush time.Time
	retryAt   time.Time // after a failed flush: no flush before
}

// rateCount is one key's usage in the current window.
type rateCount struct {
	project string
	// global is the shared count read back by the last flush (this
	// process's flushed requests included).
	global int64
	// inflight are being added by a running flush; pending were admitted
	// here since.
	inflight, pending int64
}

// rateRow is one key's part of a flush.
type rateRow struct {
	key   string
	count *rateCount
	add   int64
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
		store = &rateStore{db: opts.SQLDB, postgres: opts.Dialect == dialect.Postgres, log: log}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := store.ensure(ctx); err != nil {
			log.Warn("rate limits: shared table not created; limiting per process until it is", "error", err.Error())
		}
	}
	interval := opts.RateLimitFlushInterval
	if interval == 0 {
		interval = DefaultRateLimitFlush
	}
	server = newRateLimiter("server", "application key", orDefault(opts.RateLimit, DefaultRateLimit), interval, store, log)
	client = newRateLimiter("client", "client-side key", orDefault(opts.ClientRateLimit, DefaultClientRateLimit), interval, store, log)
	return server, client
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func newRateLimiter(kind, noun string, perMinute int, interval time.Duration, store *rateStore, log *slog.Logger) *rateLimiter {
	return &rateLimiter{kind: kind, noun: noun, limit: int64(perMinute), interval: interval,
		early: max(1, int64(perMinute)/rateEarlyShare), store: store, log: log, now: time.Now,
		keys: map[string]*rateCount{}}
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

// take counts one request of key unless the key has used its limit.
func (l *rateLimiter) take(ctx context.Context, project, key string) (rateDecision, bool) {
	now := l.now()
	if l.interval < 0 && l.store != nil {
		l.flushMu.Lock()
		l.flush(ctx, now, project, key)
		l.flushMu.Unlock()
	}
	l.mu.Lock()
	rc := l.entry(now, project, key)
	used := rc.global + rc.inflight + rc.pending
	d := rateDecision{limit: l.limit}
	if used >= l.limit {
		end := time.Unix(l.window, 0).Add(rateWindow)
		l.mu.Unlock()
		d.retryAfter = max(1, int((end.Sub(now)+time.Second-1)/time.Second))
		return d, false
	}
	rc.pending++
	d.remaining = l.limit - used - 1
	due := l.store != nil && l.interval >= 0 && !now.Before(l.retryAt) &&
		(rc.pending >= l.early || now.Sub(l.lastFlush) >= l.interval)
	l.mu.Unlock()
	if due && l.flushMu.TryLock() {
		l.flush(ctx, now, "", "")
		l.flushMu.Unlock()
	}
	return d, true
}

// entry is key's count in the window of now, starting a new window (and
// forgetting the keys of the last) when now has left it. l.mu is held.
func (l *rateLimiter) entry(now time.Time, project, key string) *rateCount {
	l.roll(now)
	rc := l.keys[key]
	if rc == nil {
		rc = &rateCount{project: project}
		l.keys[key] = rc
	}
	return rc
}

// roll starts the window of now if it is a later one. Requests admitted in
// the last window and not yet flushed are dropped with it. l.mu is held.
func (l *rateLimiter) roll(now time.Time) {
	if w := now.Truncate(rateWindow).Unix(); w > l.window {
		l.window = w
		l.keys = map[string]*rateCount{}
	}
}

// flush adds every key's pending requests to the shared counts and reads
// them back; with read set, that key's count is read back even if it has
// nothing pending. On failure the counts stay pending and the process goes
// on limiting with what it knows. The caller holds l.flushMu.
func (l *rateLimiter) flush(ctx context.Context, now time.Time, readProject, read string) {
	l.mu.Lock()
	if now.Before(l.retryAt) {
		l.mu.Unlock()
		return
	}
	if read != "" {
		l.entry(now, readProject, read)
	}
	window := l.window
	rows := make([]rateRow, 0, len(l.keys))
	for k, rc := range l.keys {
		if rc.pending > 0 || k == read {
			rows = append(rows, rateRow{key: k, count: rc, add: rc.pending})
			rc.inflight += rc.pending
			rc.pending = 0
		}
	}
	l.lastFlush = now
	l.mu.Unlock()
	if len(rows) == 0 {
		return
	}
	// One order everywhere, so concurrent upserts of several keys cannot
	// deadlock on PostgreSQL.
	slices.SortFunc(rows, func(a, b rateRow) int { return strings.Compare(a.key, b.key) })

	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rateFlushTimeout)
	defer cancel()
	counts, err := l.store.add(fctx, l.kind, window, rows)
	l.mu.Lock()
	for _, r := range rows {
		// The count may belong to a window already left: harmless.
		r.count.inflight -= r.add
		if err != nil {
			r.count.pending += r.add
		} else {
			r.count.global = max(r.count.global, counts[r.key])
		}
	}
	if err != nil {
		l.retryAt = l.now().Add(rateFlushBackoff)
	}
	l.mu.Unlock()
	if err != nil {
		l.log.WarnContext(ctx, "rate limits: flushing counts to the database failed; limiting per process meanwhile",
			"keys", l.kind, "error", err.Error())
		return
	}
	l.store.sweep(fctx, window)
}
