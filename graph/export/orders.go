package export

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	entorder "github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
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
// rows. filters: {"junction": "and", "<field>": {"conditions": {"$op":
// [values]}}} with status, customer_id, source_id and id ($in, $is,
// $not_in, $is_not) and created_at, updated_at ($after, $before).
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
		if *p.Order != "created_at" && *p.Order != "-created_at" {
			return nil, apperr.InvalidPayload("Property .parameters.order must be created_at or -created_at, got %q", *p.Order)
		}
		params["order"] = *p.Order
	}
	if p.Fields != nil {
		seen := map[string]bool{}
		for i, f := range p.Fields {
			if !slices.Contains(OrderExportFields, f) && !(strings.HasPrefix(f, "metadata.") && len(f) > len("metadata.")) {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] must be one of %s or metadata.<key>, got %q",
					i, strings.Join(OrderExportFields, ", "), f)
			}
			if seen[f] {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] repeats %q", i, f)
			}
			seen[f] = true
		}
		params["fields"] = p.Fields
	}
	if p.Filters != nil {
		if _, err := orderFilters(p.Filters); err != nil {
			return nil, err
		}
		params["filters"] = p.Filters
	}
	return schedule(ctx, "order", nil, params, JobExportOrders)
}

// orderFilters reads an export's filters as predicates (400 naming what
// is not understood).
func orderFilters(filters map[string]any) ([]predicate.Order, error) {
	var out []predicate.Order
	keys := make([]string, 0, len(filters))
	for k := range filters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, field := range keys {
		if field == "junction" {
			if j, _ := filters[field].(string); !strings.EqualFold(j, "and") {
				return nil, apperr.InvalidPayload("Property .parameters.filters.junction must be and")
			}
			continue
		}
		f, _ := filters[field].(map[string]any)
		conds, _ := f["conditions"].(map[string]any)
		if conds == nil {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s must be an object with conditions", field)
		}
		for op, raw := range conds {
			p, err := orderCondition(field, op, raw)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// orderCondition is one filter condition.
func orderCondition(field, op string, raw any) (predicate.Order, error) {
	values, _ := raw.([]any)
	if values == nil {
		values = []any{raw}
	}
	strs := make([]string, 0, len(values))
	for _, v := range values {
		s, ok := v.(string)
		if !ok {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s.conditions.%s must hold strings", field, op)
		}
		strs = append(strs, s)
	}
	switch field {
	case "status", "customer_id", "source_id", "id":
		col := map[string]string{"status": entorder.FieldStatus, "customer_id": entorder.FieldCustomerID,
			"source_id": entorder.FieldSourceID, "id": entorder.FieldID}[field]
		args := make([]any, len(strs))
		for i, s := range strs {
			args[i] = s
		}
		switch op {
		case "$in", "$is":
			return func(s *entsql.Selector) { s.Where(entsql.In(s.C(col), args...)) }, nil
		case "$not_in", "$is_not":
			return func(s *entsql.Selector) { s.Where(entsql.NotIn(s.C(col), args...)) }, nil
		}
	case "created_at", "updated_at":
		if len(strs) != 1 {
			break
		}
		t, err := time.Parse(time.RFC3339Nano, strs[0])
		if err != nil {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s.conditions.%s must be a date-time", field, op)
		}
		switch op {
		case "$after":
			return func(s *entsql.Selector) { s.Where(entsql.GT(s.C(field), t)) }, nil
		case "$before":
			return func(s *entsql.Selector) { s.Where(entsql.LT(s.C(field), t)) }, nil
		}
	}
	return nil, apperr.InvalidPayload("Property .parameters.filters.%s: condition %s is not supported (status, customer_id, source_id, id: $in, $is, $not_in, $is_not; created_at, updated_at: $after, $before)", field, op)
}

// RunOrdersExport writes an orders export's CSV in keyset pages of
// (created_at, id), committing a chunk at a time as the transactions
// export does (a resumed job continues after its last committed chunk).
func RunOrdersExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	exp, fields, ch, err := beginRun(ctx, w, job, DefaultOrderExportFields)
	if err != nil || ch == nil {
		return err
	}
	var preds []predicate.Order
	if f, ok := exp.Parameters["filters"].(map[string]any); ok {
		if preds, err = orderFilters(f); err != nil {
			return err
		}
	}
	err = ch.writeOrders(ctx, fields, preds, exp.Parameters["order"] != "created_at", min(w.BatchSize, maxExportBatch))
	if werr := ch.wait(); err == nil {
		err = werr
	}
	return err
}

// writeOrders streams the orders after the committed position as CSV
// lines, committing a chunk whenever one is full and the last with DONE.
func (ch *exportChunker) writeOrders(ctx context.Context, names []string, preds []predicate.Order, desc bool, pageSize int) error {
	if ch.seq == 0 {
		ch.buf = appendCSVHeader(ch.buf, names)
	}
	more, at, id := ch.rows > 0, ch.lastAt, ch.lastID
	dir := entsql.OrderAsc()
	if desc {
		dir = entsql.OrderDesc()
	}
	for {
		q := ch.w.Client.Order.Query().Where(entorder.ProjectID(ch.job.ProjectID)).Where(preds...)
		if more {
			at, id := at, id
			q.Where(func(s *entsql.Selector) {
				if desc {
					s.Where(entsql.CompositeLT([]string{s.C(entorder.FieldCreatedAt), s.C(entorder.FieldID)}, at, id))
				} else {
					s.Where(entsql.CompositeGT([]string{s.C(entorder.FieldCreatedAt), s.C(entorder.FieldID)}, at, id))
				}
			})
		}
		rows, err := q.Order(entsql.OrderByField(entorder.FieldCreatedAt, dir).ToFunc(),
			entsql.OrderByField(entorder.FieldID, dir).ToFunc()).Limit(pageSize).All(ctx)
		if err != nil {
			return fmt.Errorf("reading orders: %w", err)
		}
		for _, o := range rows {
			ch.buf = appendOrderLine(ch.buf, names, o)
			ch.pending++
			ch.posAt, ch.posID = o.CreatedAt, o.ID
			if len(ch.buf) >= ExportChunkSize || ch.pending >= ch.maxRows {
				if err := ch.commit(ctx, false); err != nil {
					return err
				}
			}
		}
		if len(rows) < pageSize {
			return ch.commit(ctx, true)
		}
		more, at, id = true, rows[len(rows)-1].CreatedAt, rows[len(rows)-1].ID
	}
}

// appendOrderLine appends o's CSV line: nulls empty, times in the API's
// format, metadata as JSON, metadata.<key> as the value (JSON unless a string).
func appendOrderLine(b []byte, names []string, o *ent.Order) []byte {
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		switch n {
		case "id":
			b = appendCSVField(b, o.ID)
		case "source_id":
			b = appendCSVField(b, str(o.SourceID))
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
			b = appendCSVField(b, str(o.CustomerID))
		case "referrer_id":
			b = appendCSVField(b, str(o.ReferrerID))
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
