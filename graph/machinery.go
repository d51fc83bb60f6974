package graph

import (
	"context"

	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The shared machinery of the domain packages lives in graph/internal/store;
// these are the few parts of it that the REST layer and main wire up.

// InTx runs fn in one transaction of the ent client in ctx; fn's context
// carries the transaction's client, so every use case it calls joins it.
// Any error (or panic) rolls everything back. GraphQL mutations get the
// same through entgql.Transactioner; REST write handlers call InTx.
func InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return store.InTx(ctx, fn)
}

// Admission bounds how many statements outside a transaction one process
// runs at once (store.Admission).
type Admission = store.Admission

// NewAdmission returns an admission of n places.
func NewAdmission(n int) *Admission { return store.NewAdmission(n) }

// WithAdmission puts a into ctx for the use cases of the request.
func WithAdmission(ctx context.Context, a *Admission) context.Context {
	return store.WithAdmission(ctx, a)
}

// DefaultDBConcurrency is the admission's default size (PROMO_DB_CONCURRENCY).
const DefaultDBConcurrency = store.DefaultDBConcurrency

// HotRowWaiters is how many requests of one process may wait on the
// database for the same voucher row (store.HotRowWaiters).
func HotRowWaiters() int { return store.HotRowWaiters }

// Observer is told the business outcomes of the work of a request
// (observe.Observer); the REST layer's metrics implement it.
type Observer = observe.Observer

// Outcomes an Observer is told.
const (
	ResultSuccess = observe.ResultSuccess
	ResultFailure = observe.ResultFailure
)

// WithObserver makes o receive the business outcomes of work done with ctx.
func WithObserver(ctx context.Context, o Observer) context.Context {
	return observe.WithObserver(ctx, o)
}

// JobQueue is the state of the background job queue (observe.JobQueue).
type JobQueue = observe.JobQueue

// ReadJobQueue reads the job queue's state for the metrics.
func ReadJobQueue(ctx context.Context) (JobQueue, error) { return observe.ReadJobQueue(ctx) }

// WithRequestID puts the request's id into ctx.
func WithRequestID(ctx context.Context, id string) context.Context {
	return observe.WithRequestID(ctx, id)
}

// RequestIDFromContext returns the request id of ctx, or "".
func RequestIDFromContext(ctx context.Context) string { return observe.RequestIDFromContext(ctx) }

// ValidRequestID reports whether a client-sent request id may be used as ours.
func ValidRequestID(id string) bool { return observe.ValidRequestID(id) }
