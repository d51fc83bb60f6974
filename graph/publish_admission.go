package graph

import (
	"context"
	"fmt"

	"golang.org/x/sync/semaphore"

	"github.com/promoengine/promoengine/ent"
)

// DefaultPublishConcurrency is how many single-statement publications one
// server process runs on the database at once unless configured
// (PROMO_PUBLISH_CONCURRENCY). Four measured best on a two-core machine
// shared by server, load and PostgreSQL (docs/benchmarks.md); a larger
// database server may take more.
const DefaultPublishConcurrency = 4

// PublishAdmission lets a fixed number of single-statement publications
// (publish_statement.go) run on the database at once; the others wait
// their turn in arrival order.
//
// Why: with one statement running per concurrent client, the database's
// CPU is shared among as many backends by the operating system's
// scheduler, which preempts a backend in the middle of its statement for
// tens of milliseconds. A few statements at a time, fed first come first
// served, finish sooner each: measured at 16 clients, the 99th percentile
// fell from 35–50 ms to about 10 ms and throughput rose by a fifth.
//
// Only statements outside a caller's transaction are admitted this way: a
// transaction may hold row locks that an admitted statement waits for, so
// it must never wait for a slot itself.
type PublishAdmission struct {
	slots *semaphore.Weighted
}

// NewPublishAdmission returns an admission of n statements at once; n ≤ 0
// admits every statement at once (nil).
func NewPublishAdmission(n int) *PublishAdmission {
	if n <= 0 {
		return nil
	}
	return &PublishAdmission{slots: semaphore.NewWeighted(int64(n))}
}

type publishAdmissionKey struct{}

// WithPublishAdmission returns ctx carrying a, which publish uses for its
// single statement. A nil a admits every statement at once.
func WithPublishAdmission(ctx context.Context, a *PublishAdmission) context.Context {
	return context.WithValue(ctx, publishAdmissionKey{}, a)
}

// publishAdmitted runs the single statement once the admission in ctx
// lets it; the slot is given back however the statement ends.
func publishAdmitted(ctx context.Context, in PublishInput, count int) (*ent.Publication, bool, error) {
	release, err := admitPublishStatement(ctx)
	if err != nil {
		return nil, false, err
	}
	defer release()
	return publishOneStatement(ctx, in, count)
}

// admitPublishStatement waits for a slot of the admission in ctx and
// returns the function that gives it back. A cancelled request stops
// waiting with its context's error.
func admitPublishStatement(ctx context.Context) (release func(), err error) {
	a, _ := ctx.Value(publishAdmissionKey{}).(*PublishAdmission)
	if a == nil || ent.TxFromContext(ctx) != nil {
		return func() {}, nil
	}
	if err := a.slots.Acquire(ctx, 1); err != nil {
		return nil, fmt.Errorf("waiting to publish: %w", err)
	}
	return func() { a.slots.Release(1) }, nil
}
