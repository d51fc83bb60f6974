package export

import (
	"context"
	"fmt"
	"strconv"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	entvoucher "github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/clock"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Voucher exports (POST /v1/exports with exported_object "voucher"): a CSV
// of the project's codes, in keyset pages (keyset.go).

// JobExportVouchers is the async action type of a vouchers export.
const JobExportVouchers = "EXPORT.VOUCHERS"

// VoucherExportFields are the columns a vouchers export may have (plus
// metadata.<key>): the documented ones this server stores.
// DefaultVoucherExportFields are those of a request that names none.
var (
	VoucherExportFields = []string{"code", "voucher_type", "value", "discount_type", "category", "start_date",
		"expiration_date", "gift_balance", "loyalty_balance", "redemption_quantity", "redemption_count", "active",
		"metadata", "id", "is_referral_code", "created_at", "updated_at", "discount_amount_limit", "campaign_id",
		"additional_info", "customer_id", "discount_effect", "discount_unit_type"}
	DefaultVoucherExportFields = []string{"code", "voucher_type", "value", "discount_type"}
)

// Vouchers schedules a CSV export of the project's vouchers.
func Vouchers(ctx context.Context, params map[string]any) (*ent.Export, error) {
	stored, err := checkExportParameters(params, VoucherExportFields, voucherFilters, voucherOrders, true)
	if err != nil {
		return nil, err
	}
	return scheduleExport(ctx, "voucher", stored, JobExportVouchers)
}

// RunVouchersExport writes a vouchers export's CSV.
func RunVouchersExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	return runKeysetExport(ctx, w, job, DefaultVoucherExportFields, func(ctx context.Context, ch *exportChunker, exp *ent.Export, names []string, desc bool, pageSize int) error {
		var preds []predicate.Voucher
		if f, ok := exp.Parameters["filters"].(map[string]any); ok {
			sel, err := parseFilters(f, voucherFilters, job.ProjectID)
			if err != nil {
				return err
			}
			for _, p := range sel {
				preds = append(preds, predicate.Voucher(p))
			}
		}
		if id, ok := exp.Parameters["campaign_id"].(string); ok {
			preds = append(preds, entvoucher.CampaignID(id))
		}
		sort := exportSort(exp.Parameters["order"], entvoucher.Table, voucherOrders)
		return writeKeyset(ctx, ch, keysetTable[*ent.Voucher]{
			page: func(ctx context.Context, after func(*entsql.Selector), limit int) ([]*ent.Voucher, error) {
				q := w.Client.Voucher.Query().Where(entvoucher.ProjectID(job.ProjectID)).Where(preds...)
				if after != nil {
					q.Where(after)
				}
				rows, err := q.Order(keysetOrder[entvoucher.OrderOption](sort, desc)...).Limit(limit).All(ctx)
				if err != nil {
					return nil, fmt.Errorf("reading vouchers: %w", err)
				}
				return rows, nil
			},
			key:  func(v *ent.Voucher) (time.Time, string) { return v.CreatedAt, v.ID },
			line: appendVoucherLine,
			sort: sort,
		}, names, desc, pageSize)
	})
}

// appendVoucherLine appends v's CSV line.
func appendVoucherLine(b []byte, names []string, v *ent.Voucher) []byte {
	num := func(b []byte, f *float64) []byte {
		if f == nil {
			return b
		}
		return strconv.AppendFloat(b, *f, 'f', -1, 64)
	}
	d := v.Discount
	if d == nil {
		d = &jsonfield.Discount{}
	}
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		switch n {
		case "code":
			b = appendCSVField(b, v.Code)
		case "id":
			b = appendCSVField(b, v.ID)
		case "voucher_type":
			b = appendCSVField(b, string(v.Type))
		case "value":
			switch {
			case v.Gift != nil:
				b = strconv.AppendInt(b, v.Gift.Amount, 10)
			case v.LoyaltyCard != nil:
				b = strconv.AppendInt(b, v.LoyaltyCard.Points, 10)
			case d.AmountOff != nil:
				b = num(b, d.AmountOff)
			case d.PercentOff != nil:
				b = num(b, d.PercentOff)
			case d.UnitOff != nil:
				b = strconv.AppendInt(b, *d.UnitOff, 10)
			default:
				b = num(b, d.FixedAmount)
			}
		case "discount_type":
			b = appendCSVField(b, string(d.Type))
		case "discount_amount_limit":
			b = num(b, d.AmountLimit)
		case "discount_effect":
			b = appendCSVField(b, textOf(d.Effect))
		case "discount_unit_type":
			b = appendCSVField(b, textOf(d.UnitType))
		case "category":
			b = appendCSVField(b, textOf(v.Category))
		case "campaign_id":
			b = appendCSVField(b, textOf(v.CampaignID))
		case "customer_id":
			b = appendCSVField(b, textOf(v.HolderID))
		case "additional_info":
			b = appendCSVField(b, textOf(v.AdditionalInfo))
		case "start_date", "expiration_date", "created_at", "updated_at":
			t := map[string]*time.Time{"start_date": v.StartDate, "expiration_date": v.ExpirationDate,
				"created_at": &v.CreatedAt, "updated_at": v.UpdatedAt}[n]
			if t != nil {
				b = t.UTC().AppendFormat(b, clock.Layout)
			}
		case "gift_balance":
			if v.Gift != nil {
				b = strconv.AppendInt(b, v.Gift.Balance, 10)
			}
		case "loyalty_balance":
			if v.LoyaltyCard != nil {
				b = strconv.AppendInt(b, v.LoyaltyCard.Balance, 10)
			}
		case "redemption_quantity":
			if v.RedemptionQuantity != nil {
				b = strconv.AppendInt(b, int64(*v.RedemptionQuantity), 10)
			}
		case "redemption_count":
			b = strconv.AppendInt(b, int64(v.RedeemedQuantity), 10)
		case "active":
			b = strconv.AppendBool(b, v.Active)
		case "is_referral_code":
			b = strconv.AppendBool(b, v.IsReferralCode)
		default:
			b = appendMetadataField(b, n, v.Metadata)
		}
	}
	return append(b, '\n')
}
