package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/contrib/entgql"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/customereventcount"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/apperr"
)

// Segment types.
const (
	SegmentStatic     = "static"
	SegmentAutoUpdate = "auto-update"
)

// CreateSegmentInput creates a segment (POST /v1/segments).
type CreateSegmentInput struct {
	Name string `json:"name"`
	// Type is "static" (Customers) or "auto-update" (Filter).
	Type      string         `json:"type"`
	Filter    map[string]any `json:"filter"`
	Customers []string       `json:"customers"`
}

// maxStaticCustomers bounds the customers listed when creating a static segment.
const maxStaticCustomers = 1000

// customerFilterFields are the customer fields a segment filter may test.
var customerFilterFields = []string{"id", "name", "email", "source_id", "phone", "description", "birthday"}

// filterOps are the condition operators of segment filters.
var filterOps = []string{"$is", "$is_not", "$in", "$not_in", "$contains", "$not_contain", "$starts_with",
	"$ends_with", "$has_value", "$is_unknown", "$more_than", "$less_than", "$more_than_equal", "$less_than_equal"}

// createSegment stores a segment and its first members: the listed
// customers of a static segment, the matching customers of an auto-update one.
func createSegment(ctx context.Context, in CreateSegmentInput) (*ent.Segment, error) {
	if in.Name == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if len(in.Name) > 300 {
		return nil, apperr.InvalidPayload("Property .name must be 1 to 300 characters")
	}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	switch in.Type {
	case SegmentStatic:
		if in.Filter != nil {
			return nil, apperr.InvalidPayload("Property .filter is not allowed for a static segment")
		}
		if len(in.Customers) > maxStaticCustomers {
			return nil, apperr.InvalidPayload("Property .customers may list at most %d customers", maxStaticCustomers)
		}
		ids := map[string]bool{}
		for i, idOrSource := range in.Customers {
			if idOrSource == "" {
				return nil, apperr.InvalidPayload("Property .customers[%d] must not be empty", i)
			}
			cust, err := customerByIDOrSourceID(ctx, idOrSource)
			if err != nil {
				return nil, err
			}
			ids[cust.ID] = true
		}
		seg, err := c.Segment.Create().SetName(in.Name).SetType(SegmentStatic).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("creating segment: %w", err)
		}
		bulk := make([]*ent.SegmentMemberCreate, 0, len(ids))
		for id := range ids {
			bulk = append(bulk, c.SegmentMember.Create().SetSegmentID(seg.ID).SetCustomerID(id).SetEnteredAt(now))
		}
		if err := c.SegmentMember.CreateBulk(bulk...).Exec(ctx); err != nil {
			return nil, fmt.Errorf("adding segment members: %w", err)
		}
		return seg, nil
	case SegmentAutoUpdate:
		if len(in.Customers) > 0 {
			return nil, apperr.InvalidPayload("Property .customers is only allowed for a static segment")
		}
		if in.Filter == nil {
			return nil, apperr.InvalidPayload("Payload must have required property 'filter' for an auto-update segment")
		}
		if err := validateCustomerFilter(in.Filter); err != nil {
			return nil, err
		}
		seg, err := c.Segment.Create().SetName(in.Name).SetType(SegmentAutoUpdate).SetFilter(in.Filter).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("creating segment: %w", err)
		}
		if err := fillSegment(ctx, c, seg, now); err != nil {
			return nil, err
		}
		return seg, nil
	}
	return nil, apperr.InvalidPayload("Property .type must be one of static, auto-update")
}

// fillSegment adds every matching customer of the project to a new
// auto-update segment, reading customers in keyset pages.
func fillSegment(ctx context.Context, c *ent.Client, seg *ent.Segment, now time.Time) error {
	const page = 500
	after := ""
	for {
		q := c.Customer.Query().Order(ent.Asc(customer.FieldID)).Limit(page)
		if after != "" {
			q.Where(customer.IDGT(after))
		}
		custs, err := q.All(ctx)
		if err != nil {
			return fmt.Errorf("reading customers: %w", err)
		}
		if len(custs) == 0 {
			return nil
		}
		ids := make([]string, len(custs))
		for i, cu := range custs {
			ids[i] = cu.ID
		}
		rows, err := c.CustomerEventCount.Query().Where(customereventcount.CustomerIDIn(ids...)).All(ctx)
		if err != nil {
			return fmt.Errorf("reading event counters: %w", err)
		}
		counts := map[string]map[string]int{}
		for _, r := range rows {
			if counts[r.CustomerID] == nil {
				counts[r.CustomerID] = map[string]int{}
			}
			counts[r.CustomerID][r.Event] = r.Count
		}
		var bulk []*ent.SegmentMemberCreate
		for _, cu := range custs {
			if matchCustomer(seg.Filter, cu, counts[cu.ID]) {
				bulk = append(bulk, c.SegmentMember.Create().SetSegmentID(seg.ID).SetCustomerID(cu.ID).SetEnteredAt(now))
			}
		}
		if len(bulk) > 0 {
			if err := c.SegmentMember.CreateBulk(bulk...).Exec(ctx); err != nil {
				return fmt.Errorf("adding segment members: %w", err)
			}
		}
		after = custs[len(custs)-1].ID
	}
}

// reevaluateSegments brings the customer's membership of every auto-update
// segment up to date and returns the segments the customer entered.
func reevaluateSegments(ctx context.Context, cust *ent.Customer) ([]string, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	segs, err := c.Segment.Query().Where(segment.Type(SegmentAutoUpdate)).All(ctx)
	if err != nil || len(segs) == 0 {
		return nil, err
	}
	counts, err := eventCounts(ctx, c, cust.ID)
	if err != nil {
		return nil, err
	}
	members, err := c.SegmentMember.Query().Where(segmentmember.CustomerID(cust.ID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading segment membership: %w", err)
	}
	in := map[string]bool{}
	for _, m := range members {
		in[m.SegmentID] = true
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	var entered, left []string
	for _, seg := range segs {
		match := matchCustomer(seg.Filter, cust, counts)
		switch {
		case match && !in[seg.ID]:
			entered = append(entered, seg.ID)
		case !match && in[seg.ID]:
			left = append(left, seg.ID)
		}
	}
	if len(left) > 0 {
		if _, err := c.SegmentMember.Delete().Where(segmentmember.CustomerID(cust.ID), segmentmember.SegmentIDIn(left...)).Exec(ctx); err != nil {
			return nil, fmt.Errorf("leaving segments: %w", err)
		}
	}
	for _, id := range entered {
		err := c.SegmentMember.Create().SetSegmentID(id).SetCustomerID(cust.ID).SetEnteredAt(now).
			OnConflictColumns(segmentmember.FieldSegmentID, segmentmember.FieldCustomerID).DoNothing().Exec(ctx)
		if err != nil && !isNoRows(err) {
			return nil, fmt.Errorf("entering segment: %w", err)
		}
	}
	return entered, nil
}

// isNoRows reports the error ent returns when an upsert did nothing.
func isNoRows(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no rows in result set")
}

// validateCustomerFilter checks a segment filter's keys and conditions.
func validateCustomerFilter(f map[string]any) error {
	for key, raw := range f {
		if key == "junction" {
			if j, _ := raw.(string); j != "and" && j != "or" {
				return apperr.InvalidPayload("Property .filter.junction must be and or or")
			}
			continue
		}
		switch {
		case strings.HasPrefix(key, "events.") && strings.HasSuffix(key, ".count") && len(key) > len("events..count"):
		case strings.HasPrefix(key, "metadata.") && len(key) > len("metadata."):
		case slices.Contains(customerFilterFields, key):
		default:
			return apperr.InvalidPayload("Property .filter.%s is not a supported filter: use events.<name>.count, metadata.<key> or one of %v", key, customerFilterFields)
		}
		cond, err := conditionsOf(raw)
		if err != nil {
			return apperr.InvalidPayload("Property .filter.%s %s", key, err.Error())
		}
		for op := range cond {
			if !slices.Contains(filterOps, op) {
				return apperr.InvalidPayload("Property .filter.%s.conditions.%s is not a supported operator", key, op)
			}
		}
	}
	return nil
}

// conditionsOf returns the conditions object of a filter entry.
func conditionsOf(raw any) (map[string]any, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object with conditions")
	}
	cond, ok := m["conditions"].(map[string]any)
	if !ok || len(cond) == 0 {
		return nil, fmt.Errorf("must have a non-empty conditions object")
	}
	return cond, nil
}

// matchCustomer evaluates a segment filter for one customer; counts are
// the customer's event counters. Entries are joined by the junction (and
// by default); the operators of one entry must all hold.
func matchCustomer(f map[string]any, cust *ent.Customer, counts map[string]int) bool {
	or := f["junction"] == "or"
	seen := false
	for key, raw := range f {
		if key == "junction" {
			continue
		}
		cond, err := conditionsOf(raw)
		if err != nil {
			return false
		}
		var value any // nil: unknown
		switch {
		case strings.HasPrefix(key, "events.") && strings.HasSuffix(key, ".count"):
			value = float64(counts[strings.TrimSuffix(strings.TrimPrefix(key, "events."), ".count")])
		case strings.HasPrefix(key, "metadata."):
			value = cust.Metadata[strings.TrimPrefix(key, "metadata.")]
		default:
			value = customerField(cust, key)
		}
		ok := true
		for op, arg := range cond {
			if !matchCondition(op, value, arg) {
				ok = false
				break
			}
		}
		if or && ok {
			return true
		}
		if !or && !ok {
			return false
		}
		seen = true
	}
	if or {
		return !seen // an "or" filter without entries matches everyone
	}
	return true
}

func customerField(c *ent.Customer, key string) any {
	var p *string
	switch key {
	case "id":
		return c.ID
	case "name":
		p = c.Name
	case "email":
		p = c.Email
	case "source_id":
		p = c.SourceID
	case "phone":
		p = c.Phone
	case "description":
		p = c.Description
	case "birthday":
		p = c.Birthday
	}
	if p == nil {
		return nil
	}
	return *p
}

// condValues turns a condition argument (a scalar or an array) into a list.
func condValues(arg any) []any {
	if a, ok := arg.([]any); ok {
		return a
	}
	if a, ok := arg.([]string); ok {
		out := make([]any, len(a))
		for i, s := range a {
			out[i] = s
		}
		return out
	}
	return []any{arg}
}

// asNumber reads a number from a JSON number, float or numeric string.
func asNumber(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return f, err == nil && !math.IsNaN(f)
	}
	return 0, false
}

func asString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	case json.Number:
		return t.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// equalValues compares numerically when both sides are numbers, else as strings.
func equalValues(a, b any) bool {
	if x, ok := asNumber(a); ok {
		if y, ok := asNumber(b); ok {
			return x == y
		}
	}
	return asString(a) == asString(b)
}

// matchCondition evaluates one operator against a value (nil: unknown).
func matchCondition(op string, value, arg any) bool {
	vals := condValues(arg)
	has := value != nil && asString(value) != ""
	switch op {
	case "$has_value":
		return has
	case "$is_unknown":
		return !has
	case "$is", "$in":
		if !has {
			return false
		}
		return slices.ContainsFunc(vals, func(v any) bool { return equalValues(value, v) })
	case "$is_not", "$not_in":
		return !has || !slices.ContainsFunc(vals, func(v any) bool { return equalValues(value, v) })
	case "$contains", "$not_contain", "$starts_with", "$ends_with":
		s := strings.ToLower(asString(value))
		hit := has && slices.ContainsFunc(vals, func(v any) bool {
			w := strings.ToLower(asString(v))
			switch op {
			case "$starts_with":
				return strings.HasPrefix(s, w)
			case "$ends_with":
				return strings.HasSuffix(s, w)
			}
			return strings.Contains(s, w)
		})
		if op == "$not_contain" {
			return !hit
		}
		return hit
	case "$more_than", "$less_than", "$more_than_equal", "$less_than_equal":
		x, ok := asNumber(value)
		if !ok || len(vals) == 0 {
			return false
		}
		y, ok := asNumber(vals[0])
		if !ok {
			return false
		}
		switch op {
		case "$more_than":
			return x > y
		case "$less_than":
			return x < y
		case "$more_than_equal":
			return x >= y
		}
		return x <= y
	}
	return false
}

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

// listSegments serves GET /v1/segments and the listSegments query.
func listSegments(ctx context.Context, in *SegmentListInput) (*SegmentList, error) {
	if in == nil {
		in = &SegmentListInput{}
	}
	limit := 10
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, apperr.InvalidQueryParams("Query parameter limit must be an integer from 1 to 100")
		}
		limit = *in.Limit
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
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.Segment.Query().Where(preds...).Count(ctx)
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
// $is_unknown), joined by filters[junction] (and by default).
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
			p, err := segmentCondition(field, op, condValues(arg), name)
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
		strs[i] = asString(v)
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

// segmentByID finds one of the caller's segments.
func segmentByID(ctx context.Context, id string) (*ent.Segment, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	seg, err := c.Segment.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("segment", id)
	}
	return seg, err
}

// segmentCustomerIDs are the segment's members (at most 1000, oldest first).
func segmentCustomerIDs(ctx context.Context, seg *ent.Segment) ([]string, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	return c.SegmentMember.Query().Where(segmentmember.SegmentID(seg.ID)).
		Order(ent.Asc(segmentmember.FieldEnteredAt), ent.Asc(segmentmember.FieldCustomerID)).Limit(1000).
		Select(segmentmember.FieldCustomerID).Strings(ctx)
}

func segments(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.SegmentOrder, where *ent.SegmentWhereInput) (*ent.SegmentConnection, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = boundPage(first, last); err != nil {
		return nil, err
	}
	return c.Segment.Query().Paginate(ctx, after, first, before, last,
		ent.WithSegmentOrder(orderBy), ent.WithSegmentFilter(where.Filter))
}

// deleteSegment removes a segment and its membership.
func deleteSegment(ctx context.Context, id string) (string, error) {
	seg, err := segmentByID(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := client(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.SegmentMember.Delete().Where(segmentmember.SegmentID(seg.ID)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting segment members: %w", err)
	}
	if err := c.Segment.DeleteOne(seg).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting segment: %w", err)
	}
	return seg.ID, nil
}
