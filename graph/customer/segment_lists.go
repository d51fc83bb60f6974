package customer

import (
	"context"
	"fmt"
	"time"

	"entgo.io/contrib/entgql"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/segmentfilter"
)

// Listing segments: GET /v1/segments and listSegments (limit, order, ids
// and the filters[...] object over the segments' own fields), and the
// Segments Relay connection.

// SegmentListInput are the parameters of GET /v1/segments.
type SegmentListInput struct {
	Limit *int `json:"limit"`
	// Order is created_at (oldest first) or -created_at (default).
	Order   *string        `json:"order"`
	IDs     []string       `json:"ids"`
	Filters map[string]any `json:"filters"`
}

// SegmentList is a page of segments and the number of all matches.
type SegmentList struct {
	Total int            `json:"total"`
	Data  []*ent.Segment `json:"data"`
}

// ListSegments serves GET /v1/segments and the listSegments query.
func ListSegments(ctx context.Context, in *SegmentListInput) (*SegmentList, error) {
	if in == nil {
		in = &SegmentListInput{}
	}
	limit, err := page.Limit(in.Limit)
	if err != nil {
		return nil, err
	}
	desc := true
	if in.Order != nil {
		switch *in.Order {
		case "created_at":
			desc = false
		case "-created_at":
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be created_at or -created_at, got %q", *in.Order)
		}
	}
	var preds []predicate.Segment
	if len(in.IDs) > 100 {
		return nil, apperr.InvalidQueryParams("Query parameter ids may name at most 100 segments")
	}
	if len(in.IDs) > 0 {
		preds = append(preds, segment.IDIn(in.IDs...))
	}
	if len(in.Filters) > 0 {
		p, err := segmentFilters(in.Filters)
		if err != nil {
			return nil, err
		}
		preds = append(preds, p)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.Segment.Query().Where(preds...).CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting segments: %w", err)
	}
	dir := entsql.OrderAsc()
	if desc {
		dir = entsql.OrderDesc()
	}
	data, err := c.Segment.Query().Where(preds...).
		Order(segment.ByCreatedAt(dir), segment.ByID(dir)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing segments: %w", err)
	}
	return &SegmentList{Total: total, Data: data}, nil
}

// segmentFilters turns the filters query object into a predicate: fields
// id, name (string operators), type ($is, $is_not, $in, $not_in) and
// created_at ($after, $before, $more_than, $less_than, $has_value,
// $is_unknown), joined by filters[junction] (and by default). It filters
// Segments, not customers: operands are read as in graph/segmentfilter.
func segmentFilters(f map[string]any) (predicate.Segment, error) {
	junction := "and"
	var preds []predicate.Segment
	for field, raw := range f {
		if field == "junction" {
			j, _ := raw.(string)
			if j != "and" && j != "or" {
				return nil, apperr.InvalidQueryParams("Query parameter filters[junction] must be and or or")
			}
			junction = j
			continue
		}
		m, ok := raw.(map[string]any)
		cond, ok2 := m["conditions"].(map[string]any)
		if !ok || !ok2 || len(cond) == 0 {
			return nil, apperr.InvalidQueryParams("Query parameter filters[%s] must hold [conditions][$operator]", field)
		}
		for op, arg := range cond {
			name := fmt.Sprintf("filters[%s][conditions][%s]", field, op)
			p, err := segmentCondition(field, op, segmentfilter.Operands(arg), name)
			if err != nil {
				return nil, err
			}
			preds = append(preds, p)
		}
	}
	if junction == "or" {
		return segment.Or(preds...), nil
	}
	return segment.And(preds...), nil
}

func segmentCondition(field, op string, vals []any, name string) (predicate.Segment, error) {
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = segmentfilter.Text(v)
	}
	first := ""
	if len(strs) > 0 {
		first = strs[0]
	}
	bad := func(why string) (predicate.Segment, error) {
		return nil, apperr.InvalidQueryParams("Query parameter %s %s", name, why)
	}
	switch field {
	case "id", "name", "type":
		col := field
		switch op {
		case "$is":
			return predicate.Segment(entsql.FieldEQ(col, first)), nil
		case "$is_not":
			return predicate.Segment(entsql.FieldNEQ(col, first)), nil
		case "$in":
			return predicate.Segment(entsql.FieldIn(col, strs...)), nil
		case "$not_in":
			return predicate.Segment(entsql.FieldNotIn(col, strs...)), nil
		}
		if field == "type" {
			return bad("is not supported for type (use $is, $is_not, $in, $not_in)")
		}
		switch op {
		case "$starts_with":
			return predicate.Segment(entsql.FieldHasPrefix(col, first)), nil
		case "$ends_with":
			return predicate.Segment(entsql.FieldHasSuffix(col, first)), nil
		case "$contains":
			return predicate.Segment(entsql.FieldContains(col, first)), nil
		case "$not_contain":
			return predicate.Segment(entsql.NotPredicates(entsql.FieldContains(col, first))), nil
		case "$has_value":
			return predicate.Segment(entsql.FieldNEQ(col, "")), nil
		case "$is_unknown":
			return predicate.Segment(entsql.FieldEQ(col, "")), nil
		}
		return bad("is not a supported operator")
	case "created_at":
		switch op {
		case "$has_value":
			return predicate.Segment(entsql.FieldNotNull(segment.FieldCreatedAt)), nil
		case "$is_unknown":
			return predicate.Segment(entsql.FieldIsNull(segment.FieldCreatedAt)), nil
		}
		t, err := time.Parse(time.RFC3339Nano, first)
		if err != nil {
			if d, derr := time.Parse(time.DateOnly, first); derr == nil {
				t, err = d, nil
			}
		}
		if err != nil {
			return bad(fmt.Sprintf("must be an ISO 8601 date-time, got %q", first))
		}
		t = t.UTC()
		switch op {
		case "$after", "$more_than":
			return segment.CreatedAtGT(t), nil
		case "$before", "$less_than":
			return segment.CreatedAtLT(t), nil
		}
		return bad("is not a supported operator (use $after, $before, $more_than, $less_than, $has_value, $is_unknown)")
	}
	return nil, apperr.InvalidQueryParams("Query parameter filters[%s] is not a supported filter (use id, name, type, created_at, junction)", field)
}

// Segments serves the segments connection (Relay pagination, bounded page).
func Segments(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.SegmentOrder, where *ent.SegmentWhereInput) (*ent.SegmentConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.Segment.Query().Paginate(ctx, after, first, before, last,
		ent.WithSegmentOrder(orderBy), ent.WithSegmentFilter(where.Filter))
}
