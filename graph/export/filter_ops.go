package export

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/graph/apperr"
)

// columnPredicate is a condition on a (qualified) column.
type columnPredicate func(col string) *entsql.Predicate

// The operators of each kind of member (FiltersCondition's that apply).
var filterOperators = map[filterKind]string{
	textFilter:   "$is, $is_not, $in, $not_in, $contains, $not_contain, $starts_with, $ends_with, $has_value, $is_unknown",
	timeFilter:   "$after, $before, $more_than, $less_than, $is, $has_value, $is_unknown",
	numberFilter: "$is, $is_not, $in, $not_in, $more_than, $less_than, $more_than_equal, $less_than_equal, $has_value, $is_unknown",
	boolFilter:   "$is, $is_not, $has_value, $is_unknown",
}

// conditionOn reads the condition op with its values on a member; name is
// the condition's property path for a 400.
func conditionOn(name string, col filterColumn, op string, values []any) (columnPredicate, error) {
	if col.path != nil {
		return jsonCondition(name, col.path, op, values)
	}
	switch op {
	case "$has_value":
		return func(c string) *entsql.Predicate { return entsql.NotNull(c) }, nil
	case "$is_unknown":
		return func(c string) *entsql.Predicate { return entsql.IsNull(c) }, nil
	}
	if !strings.Contains(filterOperators[col.kind]+",", op+",") {
		return nil, apperr.InvalidPayload("Property %s: the condition is not supported here (%s)", name, filterOperators[col.kind])
	}
	args, err := filterArgs(name, col.kind, values)
	if err != nil {
		return nil, err
	}
	switch col.kind {
	case timeFilter:
		return timeCondition(name, op, args)
	case textFilter:
		if p := textCondition(op, args); p != nil {
			return p, nil
		}
	default:
		if p := compareCondition(op, args); p != nil {
			return p, nil
		}
	}
	return nil, apperr.InvalidPayload("Property %s: the condition is not supported here (%s)", name, filterOperators[col.kind])
}

// filterArgs converts a condition's values to the member's kind.
func filterArgs(name string, kind filterKind, values []any) ([]any, error) {
	if len(values) == 0 {
		return nil, apperr.InvalidPayload("Property %s must hold a value", name)
	}
	out := make([]any, len(values))
	for i, v := range values {
		text := fmt.Sprint(v)
		var err error
		switch kind {
		case textFilter:
			s, ok := v.(string)
			if !ok {
				return nil, apperr.InvalidPayload("Property %s must hold strings", name)
			}
			out[i] = s
		case timeFilter:
			out[i], err = filterTime(text)
		case numberFilter:
			out[i], err = strconv.ParseFloat(text, 64)
		case boolFilter:
			out[i], err = strconv.ParseBool(text)
		}
		if err != nil {
			return nil, apperr.InvalidPayload("Property %s must hold %s values, got %q", name,
				map[filterKind]string{timeFilter: "date-time", numberFilter: "number", boolFilter: "boolean"}[kind], text)
		}
	}
	return out, nil
}

// filterTime reads an ISO 8601 date-time or date.
func filterTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	return time.Parse(time.DateOnly, s)
}

func timeCondition(name, op string, args []any) (columnPredicate, error) {
	t := args[0].(time.Time)
	switch op {
	case "$after", "$more_than":
		return func(c string) *entsql.Predicate { return entsql.GT(c, t) }, nil
	case "$before", "$less_than":
		return func(c string) *entsql.Predicate { return entsql.LT(c, t) }, nil
	case "$is":
		// The day (a date) or the instant's day.
		day := t.Truncate(24 * time.Hour)
		return func(c string) *entsql.Predicate {
			return entsql.And(entsql.GTE(c, day), entsql.LT(c, day.Add(24*time.Hour)))
		}, nil
	}
	return nil, apperr.InvalidPayload("Property %s: the condition is not supported here (%s)", name, filterOperators[timeFilter])
}

// textCondition is a condition on a text column (nil: not one).
// Negations keep the rows without a value, as the real service does.
func textCondition(op string, args []any) columnPredicate {
	first, _ := args[0].(string)
	orNull := func(p func(string) *entsql.Predicate) columnPredicate {
		return func(c string) *entsql.Predicate { return entsql.Or(entsql.IsNull(c), p(c)) }
	}
	switch op {
	case "$is", "$in":
		return func(c string) *entsql.Predicate { return entsql.In(c, args...) }
	case "$is_not", "$not_in":
		return orNull(func(c string) *entsql.Predicate { return entsql.NotIn(c, args...) })
	case "$contains":
		return func(c string) *entsql.Predicate { return entsql.Contains(c, first) }
	case "$not_contain":
		return orNull(func(c string) *entsql.Predicate { return entsql.Not(entsql.Contains(c, first)) })
	case "$starts_with":
		return func(c string) *entsql.Predicate { return entsql.HasPrefix(c, first) }
	case "$ends_with":
		return func(c string) *entsql.Predicate { return entsql.HasSuffix(c, first) }
	}
	return nil
}

// compareCondition is a condition on a number or boolean column (nil:
// not one).
func compareCondition(op string, args []any) columnPredicate {
	first := args[0]
	switch op {
	case "$is", "$in":
		return func(c string) *entsql.Predicate { return entsql.In(c, args...) }
	case "$is_not", "$not_in":
		return func(c string) *entsql.Predicate { return entsql.Or(entsql.IsNull(c), entsql.NotIn(c, args...)) }
	case "$more_than":
		return func(c string) *entsql.Predicate { return entsql.GT(c, first) }
	case "$less_than":
		return func(c string) *entsql.Predicate { return entsql.LT(c, first) }
	case "$more_than_equal":
		return func(c string) *entsql.Predicate { return entsql.GTE(c, first) }
	case "$less_than_equal":
		return func(c string) *entsql.Predicate { return entsql.LTE(c, first) }
	}
	return nil
}

// jsonCondition is a condition on a key of a JSON column (metadata.<key>,
// address.<key>): the values compare as sent (a string with a string, a
// number with a number).
func jsonCondition(name string, path []string, op string, values []any) (columnPredicate, error) {
	at := sqljson.Path(path...)
	first := values[0]
	text, isText := first.(string)
	switch op {
	case "$has_value":
		return func(c string) *entsql.Predicate { return sqljson.HasKey(c, at) }, nil
	case "$is_unknown":
		return func(c string) *entsql.Predicate { return entsql.Not(sqljson.HasKey(c, at)) }, nil
	case "$is":
		return func(c string) *entsql.Predicate { return sqljson.ValueEQ(c, first, at) }, nil
	case "$in":
		return func(c string) *entsql.Predicate { return sqljson.ValueIn(c, values, at) }, nil
	case "$is_not":
		return func(c string) *entsql.Predicate {
			return entsql.Or(entsql.Not(sqljson.HasKey(c, at)), sqljson.ValueNEQ(c, first, at))
		}, nil
	case "$not_in":
		return func(c string) *entsql.Predicate {
			return entsql.Or(entsql.Not(sqljson.HasKey(c, at)), sqljson.ValueNotIn(c, values, at))
		}, nil
	case "$more_than", "$less_than", "$more_than_equal", "$less_than_equal":
		n, err := strconv.ParseFloat(fmt.Sprint(first), 64)
		if err != nil {
			return nil, apperr.InvalidPayload("Property %s must hold a number", name)
		}
		cmp := map[string]func(string, any, ...sqljson.Option) *entsql.Predicate{"$more_than": sqljson.ValueGT,
			"$less_than": sqljson.ValueLT, "$more_than_equal": sqljson.ValueGTE, "$less_than_equal": sqljson.ValueLTE}[op]
		return func(c string) *entsql.Predicate { return cmp(c, n, at) }, nil
	}
	if isText {
		switch op {
		case "$contains":
			return func(c string) *entsql.Predicate { return sqljson.StringContains(c, text, at) }, nil
		case "$starts_with":
			return func(c string) *entsql.Predicate { return sqljson.StringHasPrefix(c, text, at) }, nil
		case "$ends_with":
			return func(c string) *entsql.Predicate { return sqljson.StringHasSuffix(c, text, at) }, nil
		}
	}
	return nil, apperr.InvalidPayload("Property %s: the condition is not supported on %s (%s, $more_than, $less_than)",
		name, strings.Join(path, "."), filterOperators[textFilter])
}
