package export

import (
	"context"

	"github.com/promoengine/promoengine/ent"
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
	return runKeysetExport(ctx, w, job, TransactionExportFields, func(ctx context.Context, ch *exportChunker, _ *ent.Export, names []string, desc bool, pageSize int) error {
		return ch.writeTransactions(ctx, names, desc, pageSize)
	})
}
