package export

import (
	"slices"
	"sort"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/graph/apperr"
)

// An export's filters: {"junction": "and", "<field>": {"conditions":
// {"$op": [values]}}}; text fields take $in, $is, $not_in, $is_not, the
// dates (created_at, updated_at) $after and $before.

// parseFilters reads filters over the columns (filter name → column) as
// selector predicates; a field or condition not understood is a 400
// listing the allowed ones.
func parseFilters(filters map[string]any, columns map[string]string) ([]func(*entsql.Selector), error) {
	var out []func(*entsql.Selector)
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
		col, ok := columns[field]
		if !ok {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s is not supported; the filters are junction, %s",
				field, strings.Join(sortedKeys(columns), ", "))
		}
		f, _ := filters[field].(map[string]any)
		conds, _ := f["conditions"].(map[string]any)
		if conds == nil {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s must be an object with conditions", field)
		}
		for op, raw := range conds {
			p, err := filterCondition(field, col, op, raw)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// filterCondition is one condition on a column.
func filterCondition(field, col, op string, raw any) (func(*entsql.Selector), error) {
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
	if field == "created_at" || field == "updated_at" {
		t, err := time.Parse(time.RFC3339Nano, strs[0])
		if len(strs) != 1 || err != nil {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s.conditions.%s must be a date-time", field, op)
		}
		switch op {
		case "$after":
			return func(s *entsql.Selector) { s.Where(entsql.GT(s.C(col), t)) }, nil
		case "$before":
			return func(s *entsql.Selector) { s.Where(entsql.LT(s.C(col), t)) }, nil
		}
		return nil, apperr.InvalidPayload("Property .parameters.filters.%s: condition %s is not supported ($after, $before)", field, op)
	}
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
	return nil, apperr.InvalidPayload("Property .parameters.filters.%s: condition %s is not supported ($in, $is, $not_in, $is_not)", field, op)
}

// sortedKeys are m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
