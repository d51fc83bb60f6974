package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/webhook"
)

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
	// SQLite commits ten steps per transaction (graph/campaign/generation_job.go).
	BatchSize int
	// Webhooks tune webhook delivery, which Run does beside the jobs
	// (graph/webhook/delivery.go).
	Webhooks webhook.Settings
	// NoSweeps keeps Run from running the periodic sweeps (periodic.go):
	// for a test that drives them itself (RunPeriodic, or the sweep's own
	// function at a chosen clock), which a sweep run at the worker's start
	// would race.
	NoSweeps  bool
	deliverer *webhook.Deliverer
}

// Defaults fills the unset fields with their defaults.
func (w *Worker) Defaults() {
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
	if w.deliverer == nil {
		w.deliverer = &webhook.Deliverer{Client: w.Client, Dialect: w.Dialect, Logger: w.Logger, ID: w.ID, Poll: w.Poll, Webhooks: w.Webhooks}
		w.deliverer.Defaults()
		w.Webhooks = w.deliverer.Webhooks
	}
}

// DeliverWebhooks claims the webhook events that are due, sends them and
// records the outcomes (Deliverer.DeliverWebhooks); for one-off runs and tests.
func (w *Worker) DeliverWebhooks(ctx context.Context) (int, error) {
	w.Defaults()
	return w.deliverer.DeliverWebhooks(ctx)
}

// PruneWebhookEvents deletes settled webhook events older than the
// retention (Deliverer.PruneWebhookEvents).
func (w *Worker) PruneWebhookEvents(ctx context.Context) (int, error) {
	w.Defaults()
	return w.deliverer.PruneWebhookEvents(ctx)
}

// Run processes jobs, and delivers webhook events and prunes old ones in
// loops of their own, until ctx is cancelled. A job interrupted by the
// cancellation keeps its committed progress and is resumed later.
func (w *Worker) Run(ctx context.Context) {
	w.Defaults()
	deliveries, pruning := make(chan struct{}), make(chan struct{})
	go func() { defer close(deliveries); w.deliverer.RunDeliveries(ctx) }()
	go func() { defer close(pruning); w.deliverer.RunPruning(ctx) }() // graph/webhook/prune.go
	sweeps := make(chan struct{})
	go func() {
		defer close(sweeps)
		if !w.NoSweeps {
			w.runPeriodics(ctx) // periodic.go
		}
	}()
	defer func() { <-deliveries; <-pruning; <-sweeps }()
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
	w.Defaults()
	job, err := w.Claim(ctx)
	if err != nil || job == nil {
		return false, err
	}
	w.Logger.Info("job claimed", "worker", w.ID, "job", job.ID, "type", job.Type, "done", job.Done, "total", job.Total)
	// The job's own project scopes everything it reads and writes.
	jctx := viewer.NewContext(entdb.WithDialect(ent.NewContext(ctx, w.Client), w.Dialect),
		viewer.Viewer{ProjectID: job.ProjectID})
	runErr := handlerFor(job.Type).Run(jctx, w, job)
	switch {
	case errors.Is(runErr, ErrLeaseLost):
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
