package export

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	entorder "github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/clock"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Order exports (REST POST /v1/orders/export, exportOrders): a CSV of
// the project's orders through the export machinery (an export row, its
// job, chunks, downloads), exported_object "order".

// JobExportOrders is the async action type of an orders export.
const JobExportOrders = "EXPORT.ORDERS"

// OrderExportFields are the columns an orders export may have (plus
// metadata.<key>); DefaultOrderExportFields are those of a request that
// names none.
var (
	OrderExportFields = []string{"id", "source_id", "created_at", "updated_at", "status", "amount", "discount_amount",
		"items_discount_amount", "total_discount_amount", "total_amount", "customer_id", "referrer_id", "metadata"}
	DefaultOrderExportFields = []string{"id", "source_id", "status"}
)

// OrderExportInput is the body of POST /v1/orders/export.
type OrderExportInput struct {
	Parameters *OrderExportParameters `json:"parameters"`
}

// OrderExportParameters choose an orders export's columns, order and
// rows. filters: {"junction": "and"|"or", "<member>": {"conditions":
// {"$op": [values]}}} over the documented members (filter_sets.go).
type OrderExportParameters struct {
	Fields  []string       `json:"fields"`
	Order   *string        `json:"order"`
	Filters map[string]any `json:"filters"`
}

// Orders schedules a CSV export of the project's orders.
func Orders(ctx context.Context, in *OrderExportInput) (*ent.Export, error) {
	p := &OrderExportParameters{}
	if in != nil && in.Parameters != nil {
		p = in.Parameters
	}
	params := map[string]any{}
	if p.Order != nil {
		if err := checkOrder(*p.Order, orderOrders); err != nil {
			return nil, err
		}
		params["order"] = *p.Order
	}
	if p.Fields != nil {
		if err := checkFields(p.Fields, OrderExportFields); err != nil {
			return nil, err
		}
		params["fields"] = p.Fields
	}
	if p.Filters != nil {
		if _, err := orderFilters(p.Filters, ""); err != nil {
			return nil, err
		}
		params["filters"] = storedFilters(p.Filters)
	}
	return scheduleExport(ctx, "order", params, JobExportOrders)
}

// orderFilters reads an export's filters as predicates (400 naming what
// is not understood).
func orderFilters(filters map[string]any, projectID string) ([]predicate.Order, error) {
	sel, err := parseFilters(filters, orderFilterSet, projectID)
	if err != nil {
		return nil, err
	}
	out := make([]predicate.Order, len(sel))
	for i, p := range sel {
		out[i] = p
	}
	return out, nil
}

// RunOrdersExport writes an orders export's CSV in keyset pages of
// (created_at, id), committing a chunk at a time as the transactions
// export does (a resumed job continues after its last committed chunk).
func RunOrdersExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	return runKeysetExport(ctx, w, job, DefaultOrderExportFields, func(ctx context.Context, ch *exportChunker, exp *ent.Export, names []string, desc bool, pageSize int) error {
		var preds []predicate.Order
		if f, ok := exp.Parameters["filters"].(map[string]any); ok {
			var err error
			if preds, err = orderFilters(f, job.ProjectID); err != nil {
				return err
			}
		}
		return ch.writeOrders(ctx, names, preds, exportSort(exp.Parameters["order"], entorder.Table, orderOrders), desc, pageSize)
	})
}

// writeOrders streams the orders after the committed position as CSV
// lines (writeKeyset).
func (ch *exportChunker) writeOrders(ctx context.Context, names []string, preds []predicate.Order, sort keysetSort, desc bool, pageSize int) error {
	return writeKeyset(ctx, ch, keysetTable[*ent.Order]{
		page: func(ctx context.Context, after func(*entsql.Selector), limit int) ([]*ent.Order, error) {
			q := ch.w.Client.Order.Query().Where(entorder.ProjectID(ch.job.ProjectID)).Where(preds...)
			if after != nil {
				q.Where(after)
			}
			rows, err := q.Order(keysetOrder[entorder.OrderOption](sort, desc)...).Limit(limit).All(ctx)
			if err != nil {
				return nil, fmt.Errorf("reading orders: %w", err)
			}
			return rows, nil
		},
		key:  func(o *ent.Order) (time.Time, string) { return o.CreatedAt, o.ID },
		line: appendOrderLine,
		sort: sort,
	}, names, desc, pageSize)
}

// appendOrderLine appends o's CSV line: nulls empty, times in the API's
// format, metadata as JSON, metadata.<key> as the value (JSON unless a string).
func appendOrderLine(b []byte, names []string, o *ent.Order) []byte {
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		switch n {
		case "id":
			b = appendCSVField(b, o.ID)
		case "source_id":
			b = appendCSVField(b, textOf(o.SourceID))
		case "created_at":
			b = o.CreatedAt.UTC().AppendFormat(b, clock.Layout)
		case "updated_at":
			if o.UpdatedAt != nil {
				b = o.UpdatedAt.UTC().AppendFormat(b, clock.Layout)
			}
		case "status":
			b = appendCSVField(b, o.Status.String())
		case "amount":
			b = strconv.AppendInt(b, o.Amount, 10)
		case "discount_amount":
			b = strconv.AppendInt(b, o.DiscountAmount, 10)
		case "items_discount_amount":
			b = strconv.AppendInt(b, o.ItemsDiscountAmount, 10)
		case "total_discount_amount":
			b = strconv.AppendInt(b, o.TotalDiscountAmount, 10)
		case "total_amount":
			b = strconv.AppendInt(b, o.TotalAmount, 10)
		case "customer_id":
			b = appendCSVField(b, textOf(o.CustomerID))
		case "referrer_id":
			b = appendCSVField(b, textOf(o.ReferrerID))
		case "metadata":
			m, _ := json.Marshal(o.Metadata)
			b = appendCSVField(b, string(m))
		default:
			if k, ok := strings.CutPrefix(n, "metadata."); ok {
				switch v := o.Metadata[k].(type) {
				case nil:
				case string:
					b = appendCSVField(b, v)
				default:
					m, _ := json.Marshal(v)
					b = appendCSVField(b, string(m))
				}
			}
		}
	}
	return append(b, '\n')
}
