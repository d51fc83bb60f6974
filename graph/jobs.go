package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// JobVouchersGeneration is the async action type of bulk voucher generation.
const JobVouchersGeneration = "CAMPAIGN.VOUCHERS_GENERATION"

// Worker runs durable jobs (async actions). Any number of workers, in any
// number of server processes, may share one database: a job is claimed with
// FOR UPDATE SKIP LOCKED (PostgreSQL; SQLite has one writer) and held by a
// lease that each committed batch renews. A worker that dies leaves its job
// to be reclaimed once the lease expires; since every batch commits its
// vouchers, the job's progress and the campaign's count together, the job
// resumes exactly where it stopped.
type Worker struct {
	// Client and Dialect are the database the jobs live in.
	Client  *ent.Client
	Dialect string
	// Logger receives job progress and failures.
	Logger *slog.Logger
	// ID names this worker in claims (default: host, pid and a random suffix).
	ID string
	// Poll is the pause between looks for work when idle (default 500ms).
	Poll time.Duration
	// Lease is how long a claim lasts without renewal (default 30s).
	Lease time.Duration
	// BatchSize is the number of vouchers generated per step (default 5000);
	// SQLite commits ten steps per transaction (graph/generation_job.go).
	BatchSize int
	// Webhooks tune webhook delivery, which Run does beside the jobs
	// (webhook_delivery.go).
	Webhooks   WebhookSettings
	httpClient *http.Client
}

func (w *Worker) defaults() {
	if w.ID == "" {
		host, _ := os.Hostname()
		w.ID = fmt.Sprintf("%s/%d/%s", host, os.Getpid(), pulid.Hex(4))
	}
	if w.Poll <= 0 {
		w.Poll = 500 * time.Millisecond
	}
	if w.Lease <= 0 {
		w.Lease = 30 * time.Second
	}
	if w.BatchSize <= 0 {
		w.BatchSize = 5000
	}
	if w.Logger == nil {
		w.Logger = slog.Default()
	}
	w.Webhooks.defaults()
	if w.httpClient == nil {
		w.httpClient = newWebhookClient(w.Webhooks)
	}
}

// Run processes jobs, and delivers webhook events and prunes old ones in
// loops of their own, until ctx is cancelled. A job interrupted by the
// cancellation keeps its committed progress and is resumed later.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	deliveries, pruning := make(chan struct{}), make(chan struct{})
	go func() { defer close(deliveries); w.runDeliveries(ctx) }()
	go func() { defer close(pruning); w.runPruning(ctx) }() // webhook_prune.go
	defer func() { <-deliveries; <-pruning }()
	for {
		worked, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.Logger.Error("job worker", "worker", w.ID, "error", err.Error())
		}
		if worked && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(w.Poll):
		}
	}
}

// RunOnce claims one job and runs it to its end. It reports whether there was one.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	w.defaults()
	job, err := w.claim(ctx)
	if err != nil || job == nil {
		return false, err
	}
	w.Logger.Info("job claimed", "worker", w.ID, "job", job.ID, "type", job.Type, "done", job.Done, "total", job.Total)
	// The job's own project scopes everything it reads and writes.
	jctx := viewer.NewContext(entdb.WithDialect(ent.NewContext(ctx, w.Client), w.Dialect),
		viewer.Viewer{ProjectID: job.ProjectID})
	var runErr error
	switch job.Type {
	case JobExportVoucherTransactions:
		runErr = w.runExport(jctx, job)
	case JobCampaignDelete:
		runErr = w.deleteCampaignJob(jctx, job)
	case JobVouchersImport:
		runErr = w.runImport(jctx, job)
	case JobVouchersBulkUpdate:
		runErr = w.runBulkUpdate(jctx, job)
	default:
		runErr = w.generate(jctx, job)
	}
	switch {
	case errors.Is(runErr, errLeaseLost):
		w.Logger.Warn("job lease lost to another worker", "worker", w.ID, "job", job.ID)
		return true, nil
	case ctx.Err() != nil:
		// Interrupted (shutdown): hand the job back at once; its committed
		// batches stay, and the next claim resumes from there.
		w.release(context.WithoutCancel(jctx), job)
		return true, ctx.Err()
	case runErr != nil:
		w.Logger.Error("job failed", "worker", w.ID, "job", job.ID, "error", runErr.Error())
		return true, w.finish(jctx, job, runErr)
	}
	return true, w.finish(jctx, job, nil)
}

var errLeaseLost = errors.New("job lease lost")

// claim takes the oldest job that is enqueued, or in progress with an
// expired lease, and leases it to this worker.
func (w *Worker) claim(ctx context.Context) (*ent.AsyncAction, error) {
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

// commitBatch runs fn and renews the lease in one transaction; if another
// worker took the job over meanwhile, nothing of the batch is kept. A batch
// that loses a deadlock or serialization conflict is rolled back and retried.
func (w *Worker) commitBatch(ctx context.Context, job *ent.AsyncAction, fn func(ctx context.Context) (int, error)) (int, error) {
	for attempt := 1; ; attempt++ {
		n, err := w.tryBatch(ctx, job, fn)
		if err == nil || !isTransient(err) || attempt == maxBatchAttempts {
			return n, err
		}
		w.Logger.Warn("retrying job batch", "job", job.ID, "attempt", attempt, "error", err.Error())
		time.Sleep(time.Duration(attempt*attempt) * 10 * time.Millisecond)
	}
}

// maxBatchAttempts bounds the retries of one batch.
const maxBatchAttempts = 5

// isTransient reports a PostgreSQL deadlock or serialization failure: the
// transaction was rolled back and may simply be run again.
func isTransient(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "40P01" || pqErr.Code == "40001")
}

func (w *Worker) tryBatch(ctx context.Context, job *ent.AsyncAction, fn func(ctx context.Context) (int, error)) (int, error) {
	var n int
	err := InTx(ctx, func(ctx context.Context) error {
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
			return errLeaseLost
		}
		return nil
	})
	return n, err
}

// finish records the job's outcome and the campaign's generation status.
func (w *Worker) finish(ctx context.Context, job *ent.AsyncAction, failure error) error {
	return InTx(ctx, func(ctx context.Context) (err error) {
		c := ent.FromContext(ctx)
		job, err := c.AsyncAction.Get(ctx, job.ID)
		if err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		defer func() { // the event shows the campaign and job as finished
			if err == nil {
				err = emitGenerationDone(ctx, job.ID, failure)
			}
		}()
		upd := c.AsyncAction.UpdateOne(job).SetFinishedAt(time.Now().UTC()).ClearClaimedBy().ClearLeaseUntil()
		status := campaign.VouchersGenerationStatusDONE
		if failure != nil && job.ExportID != nil {
			if err := failExport(ctx, c, job, failure); err != nil {
				return fmt.Errorf("finishing job: %w", err)
			}
		}
		message, counted := fmt.Sprintf("%d voucher(s) generated successfully", job.Done), "generated"
		switch {
		case job.ExportID != nil:
			message = fmt.Sprintf("%d row(s) exported", job.Done)
		case job.Type == JobCampaignDelete:
			message, counted = fmt.Sprintf("The campaign and %d voucher(s) deleted", job.Done), "deleted"
		}
		if failure != nil {
			status = campaign.VouchersGenerationStatusFAILED
			upd.SetStatus(asyncaction.StatusFAILED).SetFailureReason(failure.Error()).
				SetResult(map[string]any{"message": failure.Error(), counted: job.Done})
		} else {
			upd.SetStatus(asyncaction.StatusDONE).
				SetResult(map[string]any{"message": message, counted: job.Done})
		}
		if res := bulkResult(job, failure); res != nil { // voucher_bulk_jobs.go
			upd.SetResult(res)
		}
		if err := upd.Exec(ctx); err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		if job.CampaignID == nil {
			return nil
		}
		// The campaign stays IN_PROGRESS while another job still runs for it.
		busy, err := c.AsyncAction.Query().Where(asyncaction.CampaignID(*job.CampaignID), asyncaction.IDNEQ(job.ID),
			asyncaction.StatusIn(asyncaction.StatusENQUEUED, asyncaction.StatusIN_PROGRESS)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		if busy {
			return nil
		}
		cmp := c.Campaign.Update().Where(campaign.ID(*job.CampaignID)).SetVouchersGenerationStatus(status)
		if failure != nil {
			cmp.Where(campaign.CreationStatusNEQ(campaign.CreationStatusDONE)).SetCreationStatus(campaign.CreationStatusFAILED)
		}
		if err := cmp.Exec(ctx); err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		if failure == nil {
			return c.Campaign.Update().Where(campaign.ID(*job.CampaignID), campaign.CreationStatusEQ(campaign.CreationStatusIN_PROGRESS)).
				SetCreationStatus(campaign.CreationStatusDONE).Exec(ctx)
		}
		return nil
	})
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
