package rest

import (
	"strconv"
	"sync"
	"time"
)

// DefaultClientRateLimit is how many requests a client-side key may make per
// minute (per server process) unless configured otherwise.
const DefaultClientRateLimit = 600

// clientRateLimiter counts requests per client-side key in fixed one-minute
// windows. It lives in process memory: with N replicas behind a load
// balancer a key may make up to N times the limit (docs/frontend.md). It
// holds one counter per key seen in the current window, and only
// authenticated keys are counted, so its size is bounded by the keys that
// exist.
type clientRateLimiter struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

func newClientRateLimiter(perMinute int) *clientRateLimiter {
	return &clientRateLimiter{limit: perMinute, window: time.Minute, now: time.Now, counts: map[string]int{}}
}

// allow counts one request of key; when the key is over its limit it
// reports false and how many seconds remain until the window ends.
func (l *clientRateLimiter) allow(key string) (ok bool, retryAfter string) {
	if l.limit <= 0 {
		return true, ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.start) >= l.window {
		l.start = now.Truncate(l.window)
		clear(l.counts)
	}
	if l.counts[key] >= l.limit {
		wait := l.start.Add(l.window).Sub(now)
		return false, strconv.Itoa(int(wait.Seconds()) + 1)
	}
	l.counts[key]++
	return true, ""
}
