package observe

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Observer receives business outcomes for metrics. The use cases report to
// the observer in the request's context (WithObserver), once the
// transaction that stores the outcome has committed, so REST and GraphQL
// are counted in one place and a rolled-back write is never counted as
// done. Without an observer nothing is reported.
type Observer interface {
	// Publication is called per publish request: SUCCESS once the
	// publication commits, FAILURE when publishing fails or is rolled back.
	Publication(result string)
	// Redemption is called per stored redemption request (the parent of a
	// stacked one): SUCCESS, or FAILURE for a stored failed redemption.
	Redemption(result string)
	// RedemptionRollback is called per committed rollback request.
	RedemptionRollback()
}

// Outcomes an Observer is told.
const (
	ResultSuccess = "SUCCESS"
	ResultFailure = "FAILURE"
)

type observerKey struct{}

// WithObserver makes o receive the business outcomes of work done with ctx.
func WithObserver(ctx context.Context, o Observer) context.Context {
	if o == nil {
		return ctx
	}
	return context.WithValue(ctx, observerKey{}, o)
}

// WithoutObserver hides any observer of ctx from the work done with the
// returned context.
func WithoutObserver(ctx context.Context) context.Context {
	return context.WithValue(ctx, observerKey{}, nil)
}

// FromContext returns the observer of ctx, or nil.
func FromContext(ctx context.Context) Observer {
	o, _ := ctx.Value(observerKey{}).(Observer)
	return o
}

// AfterCommit calls committed once the transaction in ctx commits, or
// failed (if not nil) when it fails to commit or is rolled back; at most one
// of them, once. Without a transaction in ctx the work has already
// committed: committed runs now.
func AfterCommit(ctx context.Context, committed, failed func()) {
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		committed()
		return
	}
	var once sync.Once
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				once.Do(committed)
			} else if failed != nil {
				once.Do(failed)
			}
			return err
		})
	})
	if failed != nil {
		tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
			return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
				once.Do(failed)
				return next.Rollback(ctx, tx)
			})
		})
	}
}

// Publish reports the outcome of publish; deferred with the
// address of its error result.
func Publish(ctx context.Context, err *error) {
	o := FromContext(ctx)
	if o == nil {
		return
	}
	if *err != nil {
		o.Publication(ResultFailure)
		return
	}
	AfterCommit(ctx, func() { o.Publication(ResultSuccess) }, func() { o.Publication(ResultFailure) })
}

// Redemption reports a stored redemption (failed: an rf_… one) once
// it commits and returns err unchanged; an error stores nothing and is not
// counted.
func Redemption(ctx context.Context, failed bool, err error) error {
	if o := FromContext(ctx); o != nil && err == nil {
		result := ResultSuccess
		if failed {
			result = ResultFailure
		}
		AfterCommit(ctx, func() { o.Redemption(result) }, nil)
	}
	return err
}

// Rollback reports a rollback once it commits and returns err
// unchanged.
func Rollback(ctx context.Context, err error) error {
	if o := FromContext(ctx); o != nil && err == nil {
		AfterCommit(ctx, o.RedemptionRollback, nil)
	}
	return err
}

// JobQueue describes the background jobs waiting for a worker.
type JobQueue struct {
	// Queued counts the jobs a worker may claim: enqueued, or in progress
	// with an expired lease (handed back or abandoned).
	Queued int
	// Oldest is when the oldest of them was created (zero when none).
	Oldest time.Time
}

// ReadJobQueue reads the job queue of every project (a metrics reading:
// one COUNT and one indexed lookup) with the ent client in ctx.
func ReadJobQueue(ctx context.Context) (JobQueue, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return JobQueue{}, err
	}
	sys := viewer.NewSystemContext(ctx)
	claimable := asyncaction.Or(
		asyncaction.StatusEQ(asyncaction.StatusENQUEUED),
		asyncaction.And(asyncaction.StatusEQ(asyncaction.StatusIN_PROGRESS), asyncaction.LeaseUntilLT(time.Now().UTC())),
	)
	n, err := c.AsyncAction.Query().Where(claimable).Count(sys)
	if err != nil {
		return JobQueue{}, fmt.Errorf("counting queued jobs: %w", err)
	}
	q := JobQueue{Queued: n}
	if n == 0 {
		return q, nil
	}
	oldest, err := c.AsyncAction.Query().Where(claimable).Order(asyncaction.ByCreatedAt()).First(sys)
	if ent.IsNotFound(err) {
		return q, nil
	}
	if err != nil {
		return JobQueue{}, fmt.Errorf("finding the oldest queued job: %w", err)
	}
	q.Oldest = oldest.CreatedAt
	return q, nil
}
