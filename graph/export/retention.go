package export

import (
	"context"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Deleting export files: those kept past ExportRetention, and those of a
// failed export job.

// ExportRetention is how long an export's file is kept once the export is
// DONE. After it, the next export job (in any process) deletes the file's
// chunks; the export stays DONE, without a download link.
const ExportRetention = 7 * 24 * time.Hour

// exportSweepBatch bounds the exports whose files one job start deletes.
const exportSweepBatch = 50

// sweepExportFiles deletes the files (chunks) of exports DONE more than
// ExportRetention ago, a bounded number per call, across projects. It runs
// when an export job starts; a failure is only logged.
func sweepExportFiles(ctx context.Context, w *jobrun.Worker) {
	cutoff := time.Now().UTC().Add(-ExportRetention)
	err := store.InTx(viewer.NewSystemContext(ctx), func(ctx context.Context) error {
		c := ent.FromContext(ctx)
		q := c.Export.Query().Where(export.StatusEQ(export.StatusDONE), export.SizeNotNil(), export.UpdatedAtLT(cutoff)).
			Limit(exportSweepBatch)
		if w.Dialect == dialect.Postgres {
			q.ForUpdate(entsql.WithLockAction(entsql.SkipLocked))
		}
		ids, err := q.IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := c.ExportChunk.Delete().Where(exportchunk.ExportIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		return c.Export.Update().Where(export.IDIn(ids...)).ClearSize().ClearChunks().Exec(ctx)
	})
	if err != nil {
		w.Logger.Warn("deleting expired export files", "worker", w.ID, "error", err.Error())
	}
}

// FailExport marks the export of a failed job as ERROR and deletes what
// it had written, in the transaction that ends the job.
func FailExport(ctx context.Context, c *ent.Client, job *ent.AsyncAction, failure error) error {
	if job.ExportID == nil {
		return nil
	}
	if _, err := c.ExportChunk.Delete().Where(exportchunk.ExportID(*job.ExportID)).Exec(ctx); err != nil {
		return err
	}
	return c.Export.Update().Where(export.ID(*job.ExportID)).SetStatus(export.StatusERROR).
		SetFailureReason(failure.Error()).ClearSize().ClearChunks().Exec(ctx)
}
