package export

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// JobExportVoucherTransactions is the async action type of a voucher
// transactions export.
const JobExportVoucherTransactions = "EXPORT.VOUCHER_TRANSACTIONS"

// TransactionExportFields are the columns a voucher transactions export
// may have, in their default order.
var TransactionExportFields = []string{"id", "type", "source_id", "reason", "balance", "amount", "created_at",
	"voucher_id", "campaign_id", "details", "related_transaction_id", "source"}

// DefaultExportOrder is a transactions export's order when the request
// names none: newest first.
const DefaultExportOrder = "-created_at"

// ExportParametersInput are the parameters of an export request.
type ExportParametersInput struct {
	Order  *string  `json:"order"`
	Fields []string `json:"fields"`
}

// VoucherTransactions schedules a CSV export of a voucher's
// transactions: an export row and its job, in the request's transaction.
func VoucherTransactions(ctx context.Context, codeOrID string, in *ExportParametersInput) (*ent.Export, error) {
	return voucherTransactions(ctx, codeOrID, in, nil)
}

// voucherTransactions is VoucherTransactions with the created_at filter of
// a generic export (nil: none).
func voucherTransactions(ctx context.Context, codeOrID string, in *ExportParametersInput, createdAt any) (*ent.Export, error) {
	params, err := transactionParams(in)
	if err != nil {
		return nil, err
	}
	subjectID, code, err := exportSubject(ctx, codeOrID)
	if err != nil {
		return nil, err
	}
	params["filters"] = withCreatedAt(map[string]any{"voucher_id": map[string]any{"conditions": map[string]any{"$in": []string{code}}}}, createdAt)
	return scheduleTransactions(ctx, subjectID, params)
}

// CampaignTransactions schedules a CSV export of the transactions of all
// a campaign's vouchers (POST /v1/loyalties/{campaignId}/transactions/export);
// the export's filters name the campaign.
func CampaignTransactions(ctx context.Context, campaignID string, in *ExportParametersInput) (*ent.Export, error) {
	return campaignTransactions(ctx, campaignID, in, nil)
}

// campaignTransactions is CampaignTransactions with the created_at filter
// of a generic export (nil: none).
func campaignTransactions(ctx context.Context, campaignID string, in *ExportParametersInput, createdAt any) (*ent.Export, error) {
	params, err := transactionParams(in)
	if err != nil {
		return nil, err
	}
	params["filters"] = withCreatedAt(map[string]any{"campaign_id": map[string]any{"conditions": map[string]any{"$in": []string{campaignID}}}}, createdAt)
	return scheduleTransactions(ctx, campaignID, params)
}

// transactionParams checks a transactions export's order and fields.
// The stored parameters are what the request sent: like the real
// service, an export without order or fields shows neither, and its job
// uses the defaults (DefaultExportOrder, TransactionExportFields).
func transactionParams(in *ExportParametersInput) (map[string]any, error) {
	if in == nil {
		in = &ExportParametersInput{}
	}
	params := map[string]any{}
	if in.Order != nil {
		switch *in.Order {
		case "created_at", "-created_at":
		default:
			return nil, apperr.InvalidPayload("Property .parameters.order must be created_at or -created_at, got %q", *in.Order)
		}
		params["order"] = *in.Order
	}
	if in.Fields != nil {
		if len(in.Fields) == 0 {
			return nil, apperr.InvalidPayload("Property .parameters.fields must not be empty")
		}
		seen := map[string]bool{}
		for i, f := range in.Fields {
			if !slices.Contains(TransactionExportFields, f) {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] must be one of %s, got %q", i,
					strings.Join(TransactionExportFields, ", "), f)
			}
			if seen[f] {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] repeats %q", i, f)
			}
			seen[f] = true
		}
		params["fields"] = in.Fields
	}
	return params, nil
}

// scheduleTransactions stores a transactions export of subjectID (a
// voucher, card or campaign) and its job.
func scheduleTransactions(ctx context.Context, subjectID string, params map[string]any) (*ent.Export, error) {
	return schedule(ctx, "voucher_transactions", &subjectID, params, JobExportVoucherTransactions)
}

// schedule stores an export of object (of subjectID, when it has one) with
// its parameters, and the job of jobType that writes it, in the request's
// transaction.
func schedule(ctx context.Context, object string, subjectID *string, params map[string]any, jobType string) (*ent.Export, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	exp, err := c.Export.Create().SetExportedObject(object).SetParameters(params).
		SetNillableVoucherID(subjectID).SetDownloadSecret(pulid.Hex(32)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating export: %w", err)
	}
	err = c.AsyncAction.Create().SetType(jobType).SetExportID(exp.ID).
		SetParams(&jsonfield.GenerationParams{}).SetTotal(0).SetNillableRequestID(campaign.RequestIDPtr(ctx)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling export: %w", err)
	}
	return exp, nil
}

// ByID finds one of the caller's exports.
func ByID(ctx context.Context, id string) (*ent.Export, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	exp, err := c.Export.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("export", id)
	}
	return exp, err
}
