package qualification

import (
	"fmt"
	"sort"

	"github.com/promoengine/promoengine/graph/apperr"
)

// The options.filters of a qualification (reference §5.1): a junction
// (AND, default, or OR) of conditions on the redeemable's fields.

// FilterFields are the fields a filter may name.
var FilterFields = []string{"category_id", "campaign_id", "resource_id", "code", "voucher_type", "campaign_type",
	"resource_type", "holder_role"}

// filterOps are the operators of a condition.
var filterOps = []string{"$is", "$is_not", "$in", "$not_in", "$has_value", "$is_unknown"}

// condition is one operator on one field.
type condition struct {
	field  string
	op     string
	values []string
}

// filter is a parsed options.filters.
type filter struct {
	or         bool
	conditions []condition
}

// parseFilter reads options.filters; an unknown field or operator, or a
// value that is not a string (or a list of strings), is a 400.
func parseFilter(m map[string]any) (*filter, error) {
	f := &filter{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, field := range keys {
		v := m[field]
		if field == "junction" {
			switch v {
			case "AND", "and", nil:
			case "OR", "or":
				f.or = true
			default:
				return nil, apperr.InvalidPayload("Property .options.filters.junction must be equal to one of the allowed values: AND, OR")
			}
			continue
		}
		if !contains(FilterFields, field) {
			return nil, apperr.InvalidPayload("Property .options.filters.%s is not a filter field (one of: %s)", field, join(FilterFields))
		}
		spec, _ := v.(map[string]any)
		conds, ok := spec["conditions"].(map[string]any)
		if !ok {
			return nil, apperr.InvalidPayload("Property .options.filters.%s must be an object {conditions: {$operator: value}}", field)
		}
		ops := make([]string, 0, len(conds))
		for op := range conds {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			if !contains(filterOps, op) {
				return nil, apperr.InvalidPayload("Property .options.filters.%s.conditions.%s is not an operator (one of: %s)", field, op, join(filterOps))
			}
			values, err := filterValues(conds[op])
			if err != nil {
				return nil, apperr.InvalidPayload("Property .options.filters.%s.conditions.%s %v", field, op, err)
			}
			f.conditions = append(f.conditions, condition{field: field, op: op, values: values})
		}
	}
	return f, nil
}

// filterValues reads a condition's operand: a string or a list of them
// ($has_value and $is_unknown take none).
func filterValues(v any) ([]string, error) {
	switch x := v.(type) {
	case nil, bool:
		return nil, nil
	case string:
		return []string{x}, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("must hold strings")
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("must be a string or a list of strings")
}

// none: the filter keeps every candidate.
func (f *filter) none() bool { return f == nil || len(f.conditions) == 0 }

// fields are a candidate's values of the filter fields ("" when it has
// none).
type fields map[string]string

// matches reports whether the candidate passes the filter.
func (f *filter) matches(v fields) bool {
	if f.none() {
		return true
	}
	for _, c := range f.conditions {
		ok := !(v["resource_type"] == ObjectCampaign && campaignOnlyOut[c.field]) && c.holds(v[c.field])
		if f.or && ok {
			return true
		}
		if !f.or && !ok {
			return false
		}
	}
	return !f.or
}

// holds applies one condition to a value; $is and $is_not use only the
// first value (the reference's holder_role note, kept for every field).
func (c condition) holds(value string) bool {
	switch c.op {
	case "$has_value":
		return value != ""
	case "$is_unknown":
		return value == ""
	case "$is":
		return len(c.values) > 0 && value == c.values[0]
	case "$is_not":
		return len(c.values) == 0 || value != c.values[0]
	case "$in":
		return contains(c.values, value)
	case "$not_in":
		return !contains(c.values, value)
	}
	return false
}
