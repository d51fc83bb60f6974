package campaign

import (
	"context"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// VoucherMetadataUpdate is one item of REST POST /v1/vouchers/bulk/async:
// a code and the metadata to set on it.
type VoucherMetadataUpdate struct {
	Code     string         `json:"code"`
	Metadata map[string]any `json:"metadata"`
}

// UpdateVouchersInBulk schedules a VOUCHERS.BULK_UPDATE async action: each
// code's metadata gets the given keys (other keys stay). Codes that do not
// exist are reported in the job's result (errors); the others are updated.
func UpdateVouchersInBulk(ctx context.Context, items []*VoucherMetadataUpdate) (*ent.AsyncAction, error) {
	if err := checkBulkSize(len(items)); err != nil {
		return nil, err
	}
	for i, it := range items {
		switch {
		case it == nil || strings.TrimSpace(it.Code) == "":
			return nil, apperr.InvalidPayload("Property [%d].code is required", i)
		case it.Metadata == nil:
			return nil, apperr.InvalidPayload("Property [%d].metadata is required (an object)", i)
		}
	}
	return scheduleBulk(ctx, JobVouchersBulkUpdate, items, len(items))
}

// RunBulkUpdate merges the job's metadata into its vouchers one batch at a time.
func RunBulkUpdate(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	items, err := bulkItems[VoucherMetadataUpdate](job, "bulk update")
	if err != nil {
		return err
	}
	return runBulk(ctx, w, job, func(ctx context.Context, i int) (map[string]any, error) {
		it := items[i]
		err := mergeVoucherMetadata(ctx, it.Code, it.Metadata)
		return itemFailure(it.Code, err, func(code string, e *apperr.Error) map[string]any {
			return map[string]any{"code": code, "key": e.Key, "message": e.Message, "details": e.Details}
		})
	})
}

// mergeVoucherMetadata sets the given keys of a voucher's metadata
// through the voucher update use case (same checks and events).
func mergeVoucherMetadata(ctx context.Context, code string, metadata map[string]any) error {
	v, err := VoucherByCodeOrID(ctx, code)
	if err != nil {
		return err
	}
	merged := make(map[string]any, len(v.Metadata)+len(metadata))
	for k, val := range v.Metadata {
		merged[k] = val
	}
	for k, val := range metadata {
		merged[k] = val
	}
	_, err = UpdateVoucher(ctx, v.ID, UpdateVoucherInput{Metadata: merged})
	return err
}
