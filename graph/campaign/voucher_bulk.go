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
// It runs VOUCHERS.METADATA_UPDATE jobs too.
func RunBulkUpdate(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	items, err := jobrun.Items[VoucherMetadataUpdate](job, "bulk update")
	if err != nil {
		return err
	}
	return runBulk(ctx, w, job, func(ctx context.Context, i int) (jobrun.RowOutcome, error) {
		it := items[i]
		err := mergeVoucherMetadata(ctx, it.Code, it.Metadata)
		return jobrun.RowFailure(err, func(e *apperr.Error) map[string]any {
			entry := jobrun.ErrorEntry(e)
			entry["code"] = it.Code
			return entry
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
	_, err = UpdateVoucher(ctx, v.ID, UpdateVoucherInput{Metadata: mergedMetadata(v.Metadata, metadata)})
	return err
}

// JobVouchersMetadataUpdate is the async action type of REST POST
// /v1/vouchers/metadata/async.
const JobVouchersMetadataUpdate = "VOUCHERS.METADATA_UPDATE"

// VouchersMetadataInput is the body of REST POST
// /v1/vouchers/metadata/async: every listed code gets the metadata keys
// (other keys stay). Unknown codes are reported, not created (the
// reference: "Upserts are not supported").
type VouchersMetadataInput struct {
	Codes    []string       `json:"codes"`
	Metadata map[string]any `json:"metadata"`
}

// UpdateVouchersMetadataInBulk schedules a VOUCHERS.METADATA_UPDATE: the
// metadata keys go to every code through the voucher update use case.
func UpdateVouchersMetadataInBulk(ctx context.Context, in VouchersMetadataInput) (*ent.AsyncAction, error) {
	if err := checkBulkSize(len(in.Codes)); err != nil {
		return nil, apperr.InvalidPayload("Property .codes: %s", err.(*apperr.Error).Details)
	}
	if in.Metadata == nil {
		return nil, apperr.InvalidPayload("Payload should have required property 'metadata'")
	}
	items := make([]VoucherMetadataUpdate, len(in.Codes))
	for i, code := range in.Codes {
		if strings.TrimSpace(code) == "" {
			return nil, apperr.InvalidPayload("Property .codes[%d] must be a code", i)
		}
		items[i] = VoucherMetadataUpdate{Code: code, Metadata: in.Metadata}
	}
	return scheduleBulk(ctx, JobVouchersMetadataUpdate, items, len(items))
}
