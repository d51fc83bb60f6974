package rest

import (
	"context"
	"time"
)

// take admits one request of key unless the key has used its limit: from
// the tokens this process has reserved, else from a new reservation, else
// — without the shared table, or while it cannot be reached — from what
// this process knows alone.
func (l *rateLimiter) take(ctx context.Context, project, key string) (rateDecision, bool) {
	for {
		now := l.now()
		l.mu.Lock()
		rc := l.entry(now, project, key)
		switch {
		case rc.tokens > 0:
			rc.tokens--
			d := l.admitted(rc)
			l.mu.Unlock()
			return d, true
		case rc.exhausted:
			l.mu.Unlock()
			return l.refused(now), false
		case l.store == nil || now.Before(l.retryAt):
			// Alone: the shared count as last seen plus what this process
			// admitted since without reserving must stay under the limit.
			if rc.shared+rc.unshared >= l.limit {
				l.mu.Unlock()
				return l.refused(now), false
			}
			rc.unshared++
			d := l.admitted(rc)
			l.mu.Unlock()
			return d, true
		case rc.reserving != nil:
			// Another request of this key is reserving: wait for its
			// grant (bounded by rateReserveTimeout), then decide again.
			wait := rc.reserving
			l.mu.Unlock()
			<-wait
		default:
			l.reserve(ctx, rc, key) // unlocks l.mu
		}
	}
}

// admitted is the decision for a request just admitted. l.mu is held.
func (l *rateLimiter) admitted(rc *rateCount) rateDecision {
	// Used: what was reserved by every process and is not this process's
	// unused tokens, plus what was admitted without reserving.
	used := rc.shared - rc.tokens + rc.unshared
	return rateDecision{limit: l.limit, remaining: min(l.limit-1, max(0, l.limit-used))}
}

// refused is the decision for a request over the limit: retry when the
// window ends.
func (l *rateLimiter) refused(now time.Time) rateDecision {
	end := now.Truncate(rateWindow).Add(rateWindow)
	return rateDecision{limit: l.limit, retryAfter: max(1, int((end.Sub(now)+time.Second-1)/time.Second))}
}

// reserve asks the shared table for more of key's quota and records the
// grant in rc. Called with l.mu held; returns with it released. The key's
// other requests wait on rc.reserving meanwhile.
func (l *rateLimiter) reserve(ctx context.Context, rc *rateCount, key string) {
	done := make(chan struct{})
	rc.reserving = done
	r := rateReservation{kind: l.kind, window: l.window, project: rc.project, key: key,
		settle: rc.unshared, want: l.grantSize(rc), limit: l.limit}
	l.mu.Unlock()

	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rateReserveTimeout)
	defer cancel()
	g, err := l.store.reserve(rctx, r)

	l.mu.Lock()
	// rc may belong to a window already left: harmless, it is forgotten.
	rc.reserving = nil
	close(done)
	rc.unshared -= g.settled
	if err == nil {
		rc.tokens += g.granted
		rc.shared = max(rc.shared, g.count)
		rc.exhausted = g.exhausted
	} else {
		l.retryAt = l.now().Add(rateReserveBackoff)
	}
	l.mu.Unlock()
	if err != nil {
		l.log.WarnContext(ctx, "rate limits: reserving from the shared table failed; limiting per process meanwhile",
			"keys", l.kind, "error", err.Error())
		return
	}
	l.store.sweep(rctx, r.window)
}

// grantSize is how much one reservation asks for: a block, or less as the
// window fills (1/rateShrink of what is left as far as this process
// knows), at least 1. l.mu is held.
func (l *rateLimiter) grantSize(rc *rateCount) int64 {
	left := l.limit - rc.shared - rc.unshared
	return min(l.block, max(1, (left+rateShrink-1)/rateShrink))
}

// entry is key's count in the window of now, starting a new window (and
// forgetting the keys of the last) when now has left it. l.mu is held.
func (l *rateLimiter) entry(now time.Time, project, key string) *rateCount {
	if w := now.Truncate(rateWindow).Unix(); w > l.window {
		l.window = w
		l.keys = map[string]*rateCount{}
	}
	rc := l.keys[key]
	if rc == nil {
		rc = &rateCount{project: project}
		l.keys[key] = rc
	}
	return rc
}
