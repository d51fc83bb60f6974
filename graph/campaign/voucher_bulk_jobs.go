package campaign

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Bulk jobs over a list of items (voucher import, metadata bulk update):
// the request is validated and stored with the job; the worker handles the
// items in committed batches, records the items that failed with the job,
// and resumes after the last committed batch.

// Async action types of the bulk jobs.
const (
	JobVouchersImport     = "VOUCHERS.IMPORT"
	JobVouchersBulkUpdate = "VOUCHERS.BULK_UPDATE"
)

const (
	// MaxBulkItems bounds the items of one bulk request (the real service
	// imports up to 100,000 codes at a time).
	MaxBulkItems = 100_000
	// bulkBatch is the number of items per committed transaction.
	bulkBatch = 100
	// maxReportedFailures bounds the failures listed in a job's result
	// (failed_count counts them all).
	maxReportedFailures = 1000
)

// failureList names the list of failed items in each bulk job's result.
var failureList = map[string]string{JobVouchersImport: "failed", JobVouchersBulkUpdate: "errors",
	JobCampaignVouchersImport: "failed", JobCampaignVouchersImportCSV: "failed"}

// scheduleBulk stores a bulk job of type typ over items (n of them).
func scheduleBulk(ctx context.Context, typ string, items any, n int) (*ent.AsyncAction, error) {
	return scheduleBulkFor(ctx, typ, nil, items, n)
}

// scheduleBulkFor stores a bulk job of type typ over items (n of them)
// that writes the campaign campaignID (nil: none).
func scheduleBulkFor(ctx context.Context, typ string, campaignID *string, items any, n int) (*ent.AsyncAction, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("encoding bulk items: %w", err)
	}
	job, err := c.AsyncAction.Create().SetType(typ).SetParams(&jsonfield.GenerationParams{Items: raw}).
		SetNillableCampaignID(campaignID).SetTotal(n).SetNillableRequestID(RequestIDPtr(ctx)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling %s: %w", typ, err)
	}
	return job, nil
}

// bulkItems decodes the items stored with a bulk job by scheduleBulk; what
// names them in the error when they are unreadable or their count is not
// the job's total.
func bulkItems[T any](job *ent.AsyncAction, what string) ([]T, error) {
	var items []T
	if job.Params == nil || json.Unmarshal(job.Params.Items, &items) != nil || len(items) != job.Total {
		return nil, fmt.Errorf("job %s: unreadable %s items", job.ID, what)
	}
	return items, nil
}

// checkBulkSize refuses an empty or oversized list.
func checkBulkSize(n int) error {
	if n == 0 {
		return apperr.InvalidPayload("Payload must be a non-empty array")
	}
	if n > MaxBulkItems {
		return apperr.InvalidPayload("Payload may hold at most %d items, got %d", MaxBulkItems, n)
	}
	return nil
}

// runBulk handles items job.Done..job.Total-1 with each, bulkBatch per
// transaction. each returns the failure entry of an item the caller got
// wrong (recorded, the job goes on) or an error that fails the batch.
func runBulk(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction, each func(ctx context.Context, i int) (map[string]any, error)) error {
	for done := job.Done; done < job.Total; {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, end := done, min(done+bulkBatch, job.Total)
		n, err := w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
			var failed []any
			for i := start; i < end; i++ {
				f, err := each(ctx, i)
				if err != nil {
					return 0, err
				}
				if f != nil {
					failed = append(failed, f)
				}
			}
			return end - start, recordFailures(ctx, job, failed)
		})
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// recordFailures adds failed items to the job's result (in the batch's
// transaction, so they commit with the batch).
func recordFailures(ctx context.Context, job *ent.AsyncAction, failed []any) error {
	if len(failed) == 0 {
		return nil
	}
	c := ent.FromContext(ctx)
	cur, err := c.AsyncAction.Get(ctx, job.ID)
	if err != nil {
		return fmt.Errorf("reading job result: %w", err)
	}
	key := failureList[job.Type]
	res := map[string]any{}
	for k, v := range cur.Result {
		res[k] = v
	}
	list, _ := res[key].([]any)
	for _, f := range failed {
		if len(list) < maxReportedFailures {
			list = append(list, f)
		}
	}
	res[key], res["failed_count"] = list, resultInt(res["failed_count"])+len(failed)
	if err := c.AsyncAction.UpdateOneID(job.ID).SetResult(res).Exec(ctx); err != nil {
		return fmt.Errorf("recording failed items: %w", err)
	}
	return nil
}

// BulkResult is the final result of a bulk job (nil for other jobs): what
// the real service shows for its type.
func BulkResult(job *ent.AsyncAction, failure error) map[string]any {
	key, ok := failureList[job.Type]
	if !ok {
		return nil
	}
	failed := resultInt(job.Result["failed_count"])
	list, _ := job.Result[key].([]any)
	if list == nil {
		list = []any{}
	}
	res := map[string]any{"done_count": job.Done - failed, "failed_count": failed, key: list}
	if key == "failed" { // the imports
		res["message"] = fmt.Sprintf("%d voucher(s) imported successfully, %d failed.", job.Done-failed, failed)
	}
	if failure != nil {
		res["message"] = failure.Error()
	}
	return res
}

// resultInt reads a count stored in a JSON result.
func resultInt(v any) int {
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

// itemFailure is the failure entry of an item, from a use case's
// caller-facing error; other errors (including database constraint
// errors, which abort a PostgreSQL transaction) fail the batch.
func itemFailure(code string, err error, entry func(code string, e *apperr.Error) map[string]any) (map[string]any, error) {
	if err == nil {
		return nil, nil
	}
	if e, ok := apperr.As(err); ok {
		return entry(code, e), nil
	}
	return nil, err
}
