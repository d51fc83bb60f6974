package rest

import (
	"context"
	"time"
)

// DefaultRequestTimeout is how long one request may spend, database work
// included, unless configured (PROMO_REQUEST_TIMEOUT). At the deadline the
// database statement in progress is cancelled and the request answers 503
// service_unavailable with Retry-After (graph/apperr.Unavailable).
const DefaultRequestTimeout = 5 * time.Second

// DefaultReadyTimeout bounds /readyz's database ping.
const DefaultReadyTimeout = time.Second

// noDeadlineRoutes are the routes that may take longer than the request
// deadline by design: an export's download streams a file of any size out
// of the database chunk by chunk (each chunk's read is still bounded by
// the statement timeout). Imports and bulk updates are not among them:
// their request only stores the body for a background job, and jobs run
// outside requests.
// withRequest gives every other request's context the deadline, so that
// database work waiting for a connection, a lock or an answer gives up and
// the request answers 503 instead of hanging.
var noDeadlineRoutes = map[string]bool{"/v1/exports/:id/download": true}

// pingWithin runs ready with a deadline of timeout and returns when either
// ends: a database that is frozen rather than stopped (a paused server, a
// partition) can block a ping in the driver past its context, and /readyz
// must answer 503 quickly all the same. The ping, if still blocked, ends
// when its connection's bound does (ent/entdb.deadlineDialer).
func pingWithin(ctx context.Context, timeout time.Duration, ready func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ready(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
