package campaign

import (
	"context"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// ImportVouchers is REST POST /v1/vouchers/import: standalone vouchers
// with given codes, imported by a background job (an async action of type
// VOUCHERS.IMPORT), as the real service does. The list is checked at once
// (every item has a code, no code twice); what only the database can tell
// (a code that exists, an invalid discount) is reported per code in the
// job's result, and the other codes are imported.
func ImportVouchers(ctx context.Context, items []*CreateVoucherInput) (*ent.AsyncAction, error) {
	if err := checkBulkSize(len(items)); err != nil {
		return nil, err
	}
	seen := make(map[string]int, len(items))
	for i, it := range items {
		if it == nil || it.Code == nil || strings.TrimSpace(*it.Code) == "" {
			return nil, apperr.InvalidPayload("Property [%d].code is required: imported vouchers bring their codes", i)
		}
		if j, dup := seen[*it.Code]; dup {
			return nil, apperr.InvalidPayload("Code %q is given twice (items %d and %d)", *it.Code, j, i)
		}
		seen[*it.Code] = i
		it.CodeConfig = nil // imports bring their codes; nothing is generated
	}
	return scheduleBulk(ctx, JobVouchersImport, items, len(items))
}

// RunImport imports the job's vouchers one batch at a time.
func RunImport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	items, err := jobrun.Items[CreateVoucherInput](job, "import")
	if err != nil {
		return err
	}
	return runBulk(ctx, w, job, func(ctx context.Context, i int) (jobrun.RowOutcome, error) {
		_, err := CreateStandaloneVoucher(ctx, items[i])
		return jobrun.RowFailure(err, codeFailure(*items[i].Code))
	})
}
