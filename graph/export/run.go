package export

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	entexport "github.com/promoengine/promoengine/ent/export"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// beginRun starts (or resumes) the run of an export job: it reads the
// export, marks it IN_PROGRESS with the job's first commit, and returns
// the export's columns (its parameters' fields, else defaults) and a
// chunker positioned after the last committed chunk. A nil chunker means
// the export is already DONE.
func beginRun(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction, defaults []string) (*ent.Export, []string, *exportChunker, error) {
	if job.ExportID == nil {
		return nil, nil, nil, fmt.Errorf("job %s names no export", job.ID)
	}
	c := w.Client
	exp, err := c.Export.Get(ctx, *job.ExportID)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading export: %w", err)
	}
	if exp.Status == entexport.StatusDONE {
		return exp, nil, nil, nil // done, but the job's end was not recorded
	}
	if _, err := w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
		return 0, ent.FromContext(ctx).Export.UpdateOne(exp).SetStatus(entexport.StatusIN_PROGRESS).Exec(ctx)
	}); err != nil {
		return nil, nil, nil, err
	}
	fields := defaults
	if fs, ok := exp.Parameters["fields"].([]any); ok {
		fields = nil
		for _, f := range fs {
			fields = append(fields, fmt.Sprint(f))
		}
	}
	ch := &exportChunker{w: w, job: job, exp: exp, maxRows: w.BatchSize, lz4: chunkLZ4Available(ctx, c, w.Dialect)}
	if err := ch.resume(ctx); err != nil {
		return nil, nil, nil, err
	}
	return exp, fields, ch, nil
}
