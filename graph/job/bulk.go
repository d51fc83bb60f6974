package job

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Bulk jobs over a list of rows (imports, bulk and metadata updates of
// vouchers, products, customers, orders): the request validates the rows
// and stores them with the job (Schedule); the worker handles them a batch
// per committed transaction (RunRows), records the rows that failed with
// the batch (RecordEntries), and resumes after the last committed batch —
// a row is never written twice. The domains keep only their row handlers.
// A CSV file streamed from the request is the other form of input
// (bulk_csv.go).

const (
	// MaxBulkRows bounds the rows of one bulk request given as a list.
	MaxBulkRows = 100_000
	// BulkBatch is the number of listed rows per committed transaction.
	BulkBatch = 100
	// MaxReportedEntries bounds the per-row entries of a job's result
	// (failed_count counts every failure).
	MaxReportedEntries = 1000
)

// Schedule stores a bulk job of type typ over items (JSON-encoded with
// the job; n rows) that writes the campaign campaignID (nil: none).
func Schedule(ctx context.Context, typ string, campaignID *string, items any, n int) (*ent.AsyncAction, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("encoding bulk items: %w", err)
	}
	var requestID *string
	if id := observe.RequestIDFromContext(ctx); id != "" {
		requestID = &id
	}
	j, err := c.AsyncAction.Create().SetType(typ).SetParams(&jsonfield.GenerationParams{Items: raw}).
		SetNillableCampaignID(campaignID).SetTotal(n).SetNillableRequestID(requestID).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling %s: %w", typ, err)
	}
	return j, nil
}

// Items decodes the rows stored with a job by Schedule; what names them
// in the error when they are unreadable or their count is not the job's
// total. A job of no rows has none to decode.
func Items[T any](j *ent.AsyncAction, what string) ([]T, error) {
	var out []T
	if j.Total == 0 {
		return out, nil
	}
	if j.Params == nil || json.Unmarshal(j.Params.Items, &out) != nil || len(out) != j.Total {
		return nil, fmt.Errorf("job %s: unreadable %s items", j.ID, what)
	}
	return out, nil
}

// CheckBulkSize refuses an empty list or one over MaxBulkRows.
func CheckBulkSize(n int) error {
	if n == 0 {
		return apperr.InvalidPayload("Payload must be a non-empty array")
	}
	if n > MaxBulkRows {
		return apperr.InvalidPayload("Payload may hold at most %d items, got %d", MaxBulkRows, n)
	}
	return nil
}

// RowOutcome is what a row handler reports of one row: the entry listed
// in the job's result (nil: none) and whether the row failed.
type RowOutcome struct {
	Entry  map[string]any
	Failed bool
}

// Failure is the outcome of a row that failed with entry.
func Failure(entry map[string]any) RowOutcome { return RowOutcome{Entry: entry, Failed: entry != nil} }

// RunRows handles rows j.Done..j.Total-1 with each, BulkBatch per
// committed transaction, and lists the outcomes' entries under key in the
// job's result. each returns a row's outcome, or an error that fails the
// batch (retried by CommitBatch when transient, else the job fails).
func RunRows(ctx context.Context, w *Worker, j *ent.AsyncAction, key string,
	each func(ctx context.Context, i int) (RowOutcome, error)) error {
	for done := j.Done; done < j.Total; {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, end := done, min(done+BulkBatch, j.Total)
		n, err := w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
			return handleRows(ctx, j.ID, key, end-start, func(ctx context.Context, k int) (RowOutcome, error) {
				return each(ctx, start+k)
			})
		})
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// handleRows handles rows 0..n-1 of a batch with each and records their
// entries under key, in the batch's transaction.
func handleRows(ctx context.Context, jobID, key string, n int, each func(ctx context.Context, k int) (RowOutcome, error)) (int, error) {
	var entries []any
	failed := 0
	for k := range n {
		out, err := each(ctx, k)
		if err != nil {
			return 0, err
		}
		if out.Entry != nil {
			entries = append(entries, out.Entry)
		}
		if out.Failed {
			failed++
		}
	}
	return n, RecordEntries(ctx, jobID, key, entries, failed)
}

// RecordEntries adds a batch's per-row entries (the first
// MaxReportedEntries of the job) under key to the job's result and failed
// to its failed_count, in the batch's transaction.
func RecordEntries(ctx context.Context, jobID, key string, entries []any, failed int) error {
	if len(entries) == 0 && failed == 0 {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cur, err := c.AsyncAction.Get(ctx, jobID)
	if err != nil {
		return fmt.Errorf("reading job result: %w", err)
	}
	res := make(map[string]any, len(cur.Result)+2)
	for k, v := range cur.Result {
		res[k] = v
	}
	list, _ := res[key].([]any)
	for _, e := range entries {
		if len(list) < MaxReportedEntries {
			list = append(list, e)
		}
	}
	res[key], res["failed_count"] = list, ResultInt(res["failed_count"])+failed
	if err := c.AsyncAction.UpdateOneID(jobID).SetResult(res).Exec(ctx); err != nil {
		return fmt.Errorf("recording job results: %w", err)
	}
	return nil
}

// BulkResult is a finished bulk job's result: done_count, failed_count,
// the entries under key (never null) and, when noun is not empty, the
// message "N <noun>(s) <verb> successfully, M failed." (a failed job's
// message is its failure).
func BulkResult(j *ent.AsyncAction, failure error, key, noun, verb string) map[string]any {
	failed := ResultInt(j.Result["failed_count"])
	list, _ := j.Result[key].([]any)
	if list == nil {
		list = []any{}
	}
	res := map[string]any{"done_count": j.Done - failed, "failed_count": failed, key: list}
	if noun != "" {
		res["message"] = fmt.Sprintf("%d %s(s) %s successfully, %d failed.", j.Done-failed, noun, verb, failed)
	}
	if failure != nil {
		res["message"] = failure.Error()
	}
	return res
}

// RowFailure is the outcome of a row whose use case returned err: nil
// when it succeeded, entry(e) for a caller-facing error (the row is
// reported, the job goes on), and err itself for any other error — a
// database error aborts a PostgreSQL transaction, so it fails the batch.
func RowFailure(err error, entry func(e *apperr.Error) map[string]any) (RowOutcome, error) {
	if err == nil {
		return RowOutcome{}, nil
	}
	if e, ok := apperr.As(err); ok {
		return Failure(entry(e)), nil
	}
	return RowOutcome{}, err
}

// ErrorEntry is the error member of a failed row's entry.
func ErrorEntry(e *apperr.Error) map[string]any {
	return map[string]any{"key": e.Key, "message": e.Message, "details": e.Details}
}

// ResultInt reads a count stored in a JSON result.
func ResultInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}
