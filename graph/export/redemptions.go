package export

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	entredemption "github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	entvoucher "github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/clock"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Redemption exports (POST /v1/exports with exported_object
// "redemption"): a CSV of the project's redemptions and rollbacks
// (successful and failed), in keyset pages (keyset.go).

// JobExportRedemptions is the async action type of a redemptions export.
const JobExportRedemptions = "EXPORT.REDEMPTIONS"

// RedemptionExportFields are the columns a redemptions export may have
// (plus metadata.<key>): every documented one.
// DefaultRedemptionExportFields are those of a request that names none.
var (
	RedemptionExportFields = []string{"id", "object", "date", "voucher_code", "campaign", "promotion_tier_id",
		"customer_id", "customer_source_id", "customer_name", "tracking_id", "order_id", "order_amount", "gift_amount",
		"loyalty_points", "result", "failure_code", "failure_message", "metadata"}
	DefaultRedemptionExportFields = []string{"id", "object", "voucher_code", "customer_id", "date", "result"}
)

// Redemptions schedules a CSV export of the project's redemptions.
func Redemptions(ctx context.Context, params map[string]any) (*ent.Export, error) {
	stored, err := checkExportParameters(params, RedemptionExportFields, redemptionFilters, redemptionOrders, false)
	if err != nil {
		return nil, err
	}
	return scheduleExport(ctx, "redemption", stored, JobExportRedemptions)
}

// RunRedemptionsExport writes a redemptions export's CSV.
func RunRedemptionsExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	return runKeysetExport(ctx, w, job, DefaultRedemptionExportFields, func(ctx context.Context, ch *exportChunker, exp *ent.Export, names []string, desc bool, pageSize int) error {
		var preds []predicate.Redemption
		if f, ok := exp.Parameters["filters"].(map[string]any); ok {
			sel, err := parseFilters(f, redemptionFilters, job.ProjectID)
			if err != nil {
				return err
			}
			for _, p := range sel {
				preds = append(preds, predicate.Redemption(p))
			}
		}
		sort := exportSort(exp.Parameters["order"], entredemption.Table, redemptionOrders)
		return writeKeyset(ctx, ch, keysetTable[*redemptionRow]{
			page: func(ctx context.Context, after func(*entsql.Selector), limit int) ([]*redemptionRow, error) {
				q := w.Client.Redemption.Query().Where(entredemption.ProjectID(job.ProjectID)).Where(preds...)
				if after != nil {
					q.Where(after)
				}
				rows, err := q.Order(keysetOrder[entredemption.OrderOption](sort, desc)...).Limit(limit).
					WithCustomer().WithVoucher(func(q *ent.VoucherQuery) { q.Select(entvoucher.FieldType) }).All(ctx)
				if err != nil {
					return nil, fmt.Errorf("reading redemptions: %w", err)
				}
				return redemptionRows(ctx, w.Client, job.ProjectID, rows, names)
			},
			key:  func(r *redemptionRow) (time.Time, string) { return r.CreatedAt, r.ID },
			line: appendRedemptionLine,
			sort: sort,
		}, names, desc, pageSize)
	})
}

// redemptionRow is a redemption with its campaign's name.
type redemptionRow struct {
	*ent.Redemption
	campaign string
}

// redemptionRows pairs a page's redemptions with their campaigns' names
// (one query, only when the campaign column is exported).
func redemptionRows(ctx context.Context, c *ent.Client, projectID string, rows []*ent.Redemption, names []string) ([]*redemptionRow, error) {
	var ids []string
	for _, r := range rows {
		if r.CampaignID != nil {
			ids = append(ids, *r.CampaignID)
		}
	}
	campaigns, err := campaignNames(ctx, c, projectID, ids, names)
	if err != nil {
		return nil, err
	}
	out := make([]*redemptionRow, len(rows))
	for i, r := range rows {
		out[i] = &redemptionRow{Redemption: r}
		if r.CampaignID != nil {
			out[i].campaign = campaigns[*r.CampaignID]
		}
	}
	return out, nil
}

// appendRedemptionLine appends r's CSV line.
func appendRedemptionLine(b []byte, names []string, r *redemptionRow) []byte {
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		switch n {
		case "id":
			b = appendCSVField(b, r.ID)
		case "object":
			b = appendCSVField(b, string(r.Object))
		case "date":
			b = r.CreatedAt.UTC().AppendFormat(b, clock.Layout)
		case "voucher_code":
			b = appendCSVField(b, textOf(r.VoucherCode))
		case "campaign":
			b = appendCSVField(b, r.campaign)
		case "promotion_tier_id":
			if r.RelatedObjectType == "promotion_tier" {
				b = appendCSVField(b, r.RelatedObjectID)
			}
		case "customer_id":
			b = appendCSVField(b, textOf(r.CustomerID))
		case "customer_source_id", "customer_name":
			if cust := r.Edges.Customer; cust != nil {
				b = appendCSVField(b, textOf(map[string]*string{"customer_source_id": cust.SourceID, "customer_name": cust.Name}[n]))
			}
		case "tracking_id":
			b = appendCSVField(b, textOf(r.TrackingID))
		case "order_id":
			b = appendCSVField(b, textOf(r.OrderID))
		case "order_amount":
			b = appendOrderAmount(b, r.Order)
		case "gift_amount", "loyalty_points":
			want := jsonfield.VoucherTypeGift
			if n == "loyalty_points" {
				want = jsonfield.VoucherTypeLoyaltyCard
			}
			if v := r.Edges.Voucher; v != nil && v.Type == want && r.Amount != nil {
				b = strconv.AppendInt(b, *r.Amount, 10)
			}
		case "result":
			b = appendCSVField(b, string(r.Result))
		case "failure_code":
			b = appendCSVField(b, textOf(r.FailureCode))
		case "failure_message":
			b = appendCSVField(b, textOf(r.FailureMessage))
		default:
			b = appendMetadataField(b, n, r.Metadata)
		}
	}
	return append(b, '\n')
}

// appendOrderAmount appends the stored order's amount (before discounts).
func appendOrderAmount(b []byte, order json.RawMessage) []byte {
	if len(order) == 0 {
		return b
	}
	var o struct {
		Amount *json.Number `json:"amount"`
	}
	if json.Unmarshal(order, &o) != nil || o.Amount == nil {
		return b
	}
	return append(b, o.Amount.String()...)
}
