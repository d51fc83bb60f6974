package export

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// ExportChunkSize is the size an export file's chunk grows to (give or
// take one CSV line) before the job commits it; a chunk also ends after
// the worker's BatchSize rows.
const ExportChunkSize = 512 << 10

// maxExportBatch bounds the transactions read per query (the worker's
// BatchSize, if smaller, applies).
const maxExportBatch = 2000

// RunExport writes an export's CSV into the database: transactions are
// read in keyset pages of (created_at, id) and written as chunks of whole
// lines. Each chunk is committed with the job's progress (and the lease
// check), and records the position of its last row, so a job that was
// interrupted resumes after its last committed chunk: no row missing, none
// repeated. The last chunk commits with the export's DONE, row count and
// size; until then downloads are refused.
func RunExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	if job.ExportID == nil {
		return fmt.Errorf("job %s names no export", job.ID)
	}
	c := w.Client
	exp, err := c.Export.Get(ctx, *job.ExportID)
	if err != nil {
		return fmt.Errorf("reading export: %w", err)
	}
	if exp.Status == export.StatusDONE {
		return nil // done, but the job's end was not recorded
	}
	sweepExportFiles(ctx, w)
	if _, err := w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
		return 0, ent.FromContext(ctx).Export.UpdateOne(exp).SetStatus(export.StatusIN_PROGRESS).Exec(ctx)
	}); err != nil {
		return err
	}
	fields := TransactionExportFields
	if fs, ok := exp.Parameters["fields"].([]any); ok {
		fields = nil
		for _, f := range fs {
			fields = append(fields, fmt.Sprint(f))
		}
	}
	ch := &exportChunker{w: w, job: job, exp: exp, maxRows: w.BatchSize, lz4: chunkLZ4Available(ctx, c, w.Dialect)}
	if err := ch.resume(ctx); err != nil {
		return err
	}
	err = ch.writeTransactions(ctx, fields, exp.Parameters["order"] != "created_at", min(w.BatchSize, maxExportBatch))
	// Never leave a commit running behind the job's end (or its release).
	if werr := ch.wait(); err == nil {
		err = werr
	}
	return err
}
