// Package listfilter reads the filters[...] query object of the v1 lists
// (filters[name][conditions][$in][]=a&filters[junction]=or) into SQL
// predicates over a list's own columns: string and date-time operators.
package listfilter

import (
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/segmentfilter"
)

// Kind is how a filtered column is compared.
type Kind int

// Kinds of columns.
const (
	// String columns take $is, $is_not, $in, $not_in, $starts_with,
	// $ends_with, $contains, $not_contain, $has_value, $is_unknown.
	String Kind = iota
	// Time columns take $after, $before, $more_than, $less_than (as
	// after/before), $has_value, $is_unknown.
	Time
)

// Build turns the filters object into one predicate over the columns
// named in cols (filter name → column kind), joined by filters[junction]
// (and by default); an unknown filter or operator is a 400.
func Build(f map[string]any, cols map[string]Kind) (func(*entsql.Selector), error) {
	junction := "and"
	var preds []func(*entsql.Selector)
	for field, raw := range f {
		if field == "junction" {
			j, _ := raw.(string)
			if j != "and" && j != "or" {
				return nil, apperr.InvalidQueryParams("Query parameter filters[junction] must be and or or")
			}
			junction = j
			continue
		}
		kind, known := cols[field]
		if !known {
			return nil, apperr.InvalidQueryParams("Query parameter filters[%s] is not a supported filter", field)
		}
		m, ok := raw.(map[string]any)
		cond, ok2 := m["conditions"].(map[string]any)
		if !ok || !ok2 || len(cond) == 0 {
			return nil, apperr.InvalidQueryParams("Query parameter filters[%s] must hold [conditions][$operator]", field)
		}
		for op, arg := range cond {
			p, err := condition(field, kind, op, segmentfilter.Operands(arg))
			if err != nil {
				return nil, err
			}
			preds = append(preds, p)
		}
	}
	switch {
	case len(preds) == 0:
		return func(*entsql.Selector) {}, nil
	case junction == "or":
		return entsql.OrPredicates(preds...), nil
	}
	return entsql.AndPredicates(preds...), nil
}

func condition(col string, kind Kind, op string, vals []any) (func(*entsql.Selector), error) {
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = segmentfilter.Text(v)
	}
	first := ""
	if len(strs) > 0 {
		first = strs[0]
	}
	name := fmt.Sprintf("filters[%s][conditions][%s]", col, op)
	switch op {
	case "$has_value":
		if kind == Time {
			return entsql.FieldNotNull(col), nil
		}
		return entsql.FieldNEQ(col, ""), nil
	case "$is_unknown":
		if kind == Time {
			return entsql.FieldIsNull(col), nil
		}
		return entsql.FieldEQ(col, ""), nil
	}
	if kind == Time {
		t, err := time.Parse(time.RFC3339Nano, first)
		if err != nil {
			if d, derr := time.Parse(time.DateOnly, first); derr == nil {
				t, err = d, nil
			}
		}
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter %s must be an ISO 8601 date-time, got %q", name, first)
		}
		switch op {
		case "$after", "$more_than":
			return entsql.FieldGT(col, t.UTC()), nil
		case "$before", "$less_than":
			return entsql.FieldLT(col, t.UTC()), nil
		}
		return nil, apperr.InvalidQueryParams("Query parameter %s is not a supported operator (use $after, $before, $more_than, $less_than, $has_value, $is_unknown)", name)
	}
	switch op {
	case "$is":
		return entsql.FieldEQ(col, first), nil
	case "$is_not":
		return entsql.FieldNEQ(col, first), nil
	case "$in":
		return entsql.FieldIn(col, strs...), nil
	case "$not_in":
		return entsql.FieldNotIn(col, strs...), nil
	case "$starts_with":
		return entsql.FieldHasPrefix(col, first), nil
	case "$ends_with":
		return entsql.FieldHasSuffix(col, first), nil
	case "$contains":
		return entsql.FieldContains(col, first), nil
	case "$not_contain":
		return entsql.NotPredicates(entsql.FieldContains(col, first)), nil
	}
	return nil, apperr.InvalidQueryParams("Query parameter %s is not a supported operator", name)
}
