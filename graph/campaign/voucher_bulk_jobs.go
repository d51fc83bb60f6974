package campaign

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// The campaign domain's bulk jobs (voucher import, metadata bulk update,
// imports into a campaign) run on the job runner's bulk machinery
// (graph/job/bulk.go); this file names them and their results.

// Async action types of the bulk jobs.
const (
	JobVouchersImport     = "VOUCHERS.IMPORT"
	JobVouchersBulkUpdate = "VOUCHERS.BULK_UPDATE"
)

// failureList names the list of failed items in each bulk job's result.
var failureList = map[string]string{JobVouchersImport: "failed", JobVouchersBulkUpdate: "errors",
	JobCampaignVouchersImport: "failed", JobCampaignVouchersImportCSV: "failed",
	JobVouchersImportCSV: "failed", JobVouchersMetadataUpdate: "errors"}

// scheduleBulk stores a bulk job of type typ over items (n of them).
func scheduleBulk(ctx context.Context, typ string, items any, n int) (*ent.AsyncAction, error) {
	return jobrun.Schedule(ctx, typ, nil, items, n)
}

// checkBulkSize refuses an empty or oversized list.
func checkBulkSize(n int) error { return jobrun.CheckBulkSize(n) }

// runBulk handles the job's items with each (jobrun.RunRows), listing
// the failures under the job type's key.
func runBulk(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction, each func(ctx context.Context, i int) (jobrun.RowOutcome, error)) error {
	return jobrun.RunRows(ctx, w, job, failureList[job.Type], each)
}

// recordFailures adds failed items to the job's result (in the batch's
// transaction, so they commit with the batch).
func recordFailures(ctx context.Context, job *ent.AsyncAction, failed []any) error {
	return jobrun.RecordEntries(ctx, job.ID, failureList[job.Type], failed, len(failed))
}

// BulkResult is the final result of a bulk job (nil for other jobs): what
// the real service shows for its type.
func BulkResult(job *ent.AsyncAction, failure error) map[string]any {
	key, ok := failureList[job.Type]
	switch {
	case !ok:
		return nil
	case key == "failed": // the imports
		return jobrun.BulkResult(job, failure, key, "voucher", "imported")
	}
	return jobrun.BulkResult(job, failure, key, "", "")
}

// codeFailure is a code's failure entry {code, reason}.
func codeFailure(code string) func(e *apperr.Error) map[string]any {
	return func(e *apperr.Error) map[string]any {
		return map[string]any{"code": code, "reason": firstNonEmpty(e.Details, e.Message)}
	}
}
