package job

import (
	"context"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A worker's hold on a job (jobs.go): claiming it under a lease, committing
// each batch with the lease's renewal, and handing it back.

// ErrLeaseLost is returned when another worker took over the job (its lease had expired).
var ErrLeaseLost = errors.New("job lease lost")

// Claim takes the oldest job that is enqueued, or in progress with an
// expired lease, and leases it to this worker.
func (w *Worker) Claim(ctx context.Context) (*ent.AsyncAction, error) {
	sys := viewer.NewSystemContext(ctx)
	tx, err := w.Client.Tx(sys)
	if err != nil {
		return nil, fmt.Errorf("claiming job: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	now := time.Now().UTC()
	q := tx.AsyncAction.Query().
		Where(asyncaction.Or(
			asyncaction.StatusEQ(asyncaction.StatusENQUEUED),
			asyncaction.And(asyncaction.StatusEQ(asyncaction.StatusIN_PROGRESS), asyncaction.LeaseUntilLT(now)),
		)).
		Order(asyncaction.ByCreatedAt())
	if w.Dialect == dialect.Postgres {
		q = q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
	job, err := q.First(sys) // First, not Only: a LIMIT 1 claim
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claiming job: %w", err)
	}
	upd := tx.AsyncAction.UpdateOne(job).
		SetStatus(asyncaction.StatusIN_PROGRESS).
		SetClaimedBy(w.ID).
		SetLeaseUntil(now.Add(w.Lease)).
		AddAttempts(1)
	if job.StartedAt == nil {
		upd.SetStartedAt(now)
	}
	if job, err = upd.Save(sys); err != nil {
		return nil, fmt.Errorf("claiming job: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("claiming job: %w", err)
	}
	return job, nil
}

// CommitBatch runs fn and renews the lease in one transaction; if another
// worker took the job over meanwhile, nothing of the batch is kept. A batch
// that loses a deadlock or serialization conflict is rolled back and retried.
func (w *Worker) CommitBatch(ctx context.Context, job *ent.AsyncAction, fn func(ctx context.Context) (int, error)) (int, error) {
	for attempt := 1; ; attempt++ {
		n, err := w.tryBatch(ctx, job, fn)
		if err == nil || !store.IsTransient(err) || attempt == store.MaxBatchAttempts {
			return n, err
		}
		w.Logger.Warn("retrying job batch", "job", job.ID, "attempt", attempt, "error", err.Error())
		time.Sleep(time.Duration(attempt*attempt) * 10 * time.Millisecond)
	}
}

func (w *Worker) tryBatch(ctx context.Context, job *ent.AsyncAction, fn func(ctx context.Context) (int, error)) (int, error) {
	var n int
	err := store.InTx(ctx, func(ctx context.Context) error {
		var err error
		if n, err = fn(ctx); err != nil {
			return err
		}
		c := ent.FromContext(ctx)
		updated, err := c.AsyncAction.Update().
			Where(asyncaction.ID(job.ID), asyncaction.ClaimedBy(w.ID), asyncaction.StatusEQ(asyncaction.StatusIN_PROGRESS)).
			AddDone(n).
			SetLeaseUntil(time.Now().UTC().Add(w.Lease)).
			Save(ctx)
		if err != nil {
			return fmt.Errorf("recording job progress: %w", err)
		}
		if updated == 0 {
			return ErrLeaseLost
		}
		return nil
	})
	return n, err
}

// release ends this worker's lease so another worker can resume the job.
func (w *Worker) release(ctx context.Context, job *ent.AsyncAction) {
	err := w.Client.AsyncAction.Update().
		Where(asyncaction.ID(job.ID), asyncaction.ClaimedBy(w.ID)).
		SetLeaseUntil(time.Now().UTC()).ClearClaimedBy().
		Exec(ctx)
	if err != nil {
		w.Logger.Warn("releasing job lease", "job", job.ID, "error", err.Error())
	}
}
