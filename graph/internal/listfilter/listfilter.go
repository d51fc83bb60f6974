// Package listfilter reads the filters[...] query object of the v1 lists
// (filters[name][conditions][$in][]=a&filters[junction]=or) into SQL
// predicates over a list's own columns: string and date-time operators.
package listfilter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	// Time columns take $after, $before, $more_than, $less_than,
	// $has_value, $is_unknown; $more_than and $less_than take a number of
	// days before now (more than 10 days ago) or, as a date, act as
	// $after and $before.
	Time
	// NullableString columns take String's operators; NULL counts as no
	// value ($is_unknown, and the negative operators $is_not, $not_in,
	// $not_contain keep it), as "" does.
	NullableString
)

// Field is how one filter of a list applies: to a column of the list's
// own table, or through a condition the list builds itself (a filter on
// a related table, or on a value the list derives).
type Field struct {
	// Kind is the column's kind (Column, or the filter's name).
	Kind Kind
	// Column is the filtered column when it is not named as the filter.
	Column string
	// Condition, when set, builds the filter's predicate from the
	// operator and its values; it answers a 400 (apperr) for what it
	// cannot take.
	Condition func(op string, values []string) (func(*entsql.Selector), error)
	// Values, when set, are every value the column holds (an enum): $is,
	// $in, $is_not and $not_in become the set of those values kept, as
	// literals (Literal), so that a partial index on one of them serves
	// the filter ($is_not SUCCESS is result = 'FAILURE').
	Values []string
	// ValueImplies, when set, is a predicate every row with a value in the
	// column meets (a failure code is only on a FAILURE entry): it joins
	// the operators that keep only such rows, so that a partial index on
	// it serves them.
	ValueImplies func(*entsql.Selector)
}

// Build turns the filters object into one predicate over the columns
// named in cols (filter name → column kind), joined by filters[junction]
// (and by default, or; any case); an unknown filter or operator is a 400.
func Build(f map[string]any, cols map[string]Kind) (func(*entsql.Selector), error) {
	fields := make(map[string]Field, len(cols))
	for name, kind := range cols {
		fields[name] = Field{Kind: kind}
	}
	return BuildFields(f, fields)
}

// BuildFields is Build over fields that may name another column or build
// their own conditions.
func BuildFields(f map[string]any, fields map[string]Field) (func(*entsql.Selector), error) {
	junction := "and"
	var preds []func(*entsql.Selector)
	for field, raw := range f {
		if field == "junction" {
			j, _ := raw.(string)
			if j = strings.ToLower(j); j != "and" && j != "or" { // any case, as httpkit.ConditionFilters
				return nil, apperr.InvalidQueryParams("Query parameter filters[junction] must be and or or")
			}
			junction = j
			continue
		}
		fd, known := fields[field]
		if !known {
			return nil, apperr.InvalidQueryParams("Query parameter filters[%s] is not a supported filter", field)
		}
		m, ok := raw.(map[string]any)
		cond, ok2 := m["conditions"].(map[string]any)
		if !ok || !ok2 || len(cond) == 0 {
			return nil, apperr.InvalidQueryParams("Query parameter filters[%s] must hold [conditions][$operator]", field)
		}
		for op, arg := range cond {
			p, err := fd.condition(field, op, segmentfilter.Operands(arg))
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

// condition is the predicate of filters[name][conditions][op].
func (fd Field) condition(name, op string, vals []any) (func(*entsql.Selector), error) {
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = segmentfilter.Text(v)
	}
	if fd.Condition != nil {
		return fd.Condition(op, strs)
	}
	return fd.OnColumn(name, op, strs)
}

// OnColumn is the predicate of filters[name][conditions][op] over fd's
// column (Column, else name) by its Kind, Values and ValueImplies: what
// Build does for a field without a Condition, and what a Condition
// falls back to for the operators it does not serve itself.
func (fd Field) OnColumn(name, op string, strs []string) (func(*entsql.Selector), error) {
	col := name
	if fd.Column != "" {
		col = fd.Column
	}
	if fd.Values != nil {
		if p, ok := fd.valueSet(col, op, strs); ok {
			return p, nil
		}
	}
	p, err := columnCondition(col, fd.Kind, op, strs, fmt.Sprintf("filters[%s][conditions][%s]", name, op))
	if err != nil {
		return nil, err
	}
	switch op {
	case "$is_not", "$not_in", "$not_contain":
		if fd.Kind == NullableString { // no value is not the one named
			return entsql.OrPredicates(entsql.FieldIsNull(col), p), nil
		}
	case "$is_unknown":
	default: // every other operator keeps only rows with a value
		if fd.ValueImplies != nil && fd.Kind != Time {
			return entsql.AndPredicates(p, fd.ValueImplies), nil
		}
	}
	return p, nil
}

// valueSet is a set operator over an enum column (fd.Values): the values
// it keeps, written as literals; ok false for the other operators.
func (fd Field) valueSet(col, op string, strs []string) (p func(*entsql.Selector), ok bool) {
	if len(strs) > 0 && op == "$is" {
		strs = strs[:1]
	}
	var kept []string
	switch op {
	case "$is", "$in":
		for _, v := range fd.Values {
			if slices.Contains(strs, v) {
				kept = append(kept, v)
			}
		}
	case "$is_not", "$not_in":
		for _, v := range fd.Values {
			if !slices.Contains(strs, v) {
				kept = append(kept, v)
			}
		}
	default:
		return nil, false
	}
	switch len(kept) {
	case 0:
		return func(s *entsql.Selector) { s.Where(entsql.False()) }, true
	case len(fd.Values):
		return func(*entsql.Selector) {}, true
	}
	return Literal(col, kept...), true
}

// Literal keeps the rows whose column is one of values, written into the
// statement as constants rather than arguments: a partial index whose
// predicate names a constant (WHERE result = 'FAILURE') serves the query
// only when the planner sees the same constant (SQLite never proves it
// from a bound argument; PostgreSQL not in a generic plan). values are
// the constants of a closed set (enum values); one that is not a plain
// word is passed as an argument instead.
func Literal(col string, values ...string) func(*entsql.Selector) {
	for _, v := range values {
		if !plainWord(v) {
			return entsql.FieldIn(col, values...)
		}
	}
	return func(s *entsql.Selector) {
		if len(values) == 1 {
			s.Where(entsql.ExprP(s.C(col) + " = '" + values[0] + "'"))
			return
		}
		s.Where(entsql.ExprP(s.C(col) + " IN ('" + strings.Join(values, "', '") + "')"))
	}
}

// plainWord reports whether v is letters, digits and underscores only
// (safe to write between single quotes).
func plainWord(v string) bool {
	for _, r := range v {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return v != ""
}

func columnCondition(col string, kind Kind, op string, strs []string, name string) (func(*entsql.Selector), error) {
	first := ""
	if len(strs) > 0 {
		first = strs[0]
	}
	switch op {
	case "$has_value":
		switch kind {
		case Time:
			return entsql.FieldNotNull(col), nil
		case NullableString:
			return entsql.AndPredicates(entsql.FieldNotNull(col), entsql.FieldNEQ(col, "")), nil
		}
		return entsql.FieldNEQ(col, ""), nil
	case "$is_unknown":
		switch kind {
		case Time:
			return entsql.FieldIsNull(col), nil
		case NullableString:
			return entsql.OrPredicates(entsql.FieldIsNull(col), entsql.FieldEQ(col, "")), nil
		}
		return entsql.FieldEQ(col, ""), nil
	}
	if kind == Time {
		if days, err := strconv.Atoi(first); err == nil && (op == "$more_than" || op == "$less_than") {
			return daysAgo(col, op, days), nil
		}
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

// daysAgo is $more_than / $less_than days: the column is more (older than
// now minus the days) or less (newer) days in the past.
func daysAgo(col, op string, days int) func(*entsql.Selector) {
	cut := time.Now().UTC().AddDate(0, 0, -days)
	if op == "$more_than" {
		return entsql.FieldLT(col, cut)
	}
	return entsql.FieldGT(col, cut)
}

// Related is the Condition of a filter on a column of a related table (a
// campaign's name): lookup reads the IDs of the related rows whose column
// (of kind) meets the condition, looked up first so that the list walks
// the index of fk, and the list keeps the rows whose fk is one of them; a
// row without one (fk NULL) is kept by $is_unknown only, $has_value keeps
// the others.
func Related(field, column string, kind Kind, fk string,
	lookup func(where func(*entsql.Selector)) ([]string, error)) func(op string, values []string) (func(*entsql.Selector), error) {
	return func(op string, values []string) (func(*entsql.Selector), error) {
		switch op {
		case "$is_unknown":
			return entsql.FieldIsNull(fk), nil
		case "$has_value":
			return entsql.FieldNotNull(fk), nil
		}
		where, err := columnCondition(column, kind, op, values, fmt.Sprintf("filters[%s][conditions][%s]", field, op))
		if err != nil {
			return nil, err
		}
		ids, err := lookup(where)
		if err != nil {
			return nil, fmt.Errorf("looking up filters[%s]: %w", field, err)
		}
		return entsql.FieldIn(fk, ids...), nil
	}
}

// Unsupported is the Condition of a documented filter the list cannot
// honour (why says what it lacks): a 400 naming the filter, never an
// unfiltered answer.
func Unsupported(field, why string) func(string, []string) (func(*entsql.Selector), error) {
	return func(string, []string) (func(*entsql.Selector), error) {
		return nil, apperr.InvalidQueryParams("Query parameter filters[%s] is not supported: %s", field, why)
	}
}
