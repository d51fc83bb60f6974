package catalog

// An AUTO_UPDATE collection's parsed filter as SQL predicates over products
// and SKUs (collection_filter.go parses and checks it).

import (
	"encoding/json"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
)

// predicate is the filter on t's table, or nil when the filter can match
// nothing there (an object condition naming the other kind under and).
func (p *parsedFilter) predicate(t target) func(*sql.Selector) {
	return func(s *sql.Selector) {
		preds := make([]*sql.Predicate, 0, len(p.conditions))
		for _, c := range p.conditions {
			preds = append(preds, c.predicate(s, t))
		}
		if len(preds) == 0 {
			return
		}
		if p.or {
			s.Where(sql.Or(preds...))
		} else {
			s.Where(sql.And(preds...))
		}
	}
}

// predicate is one condition on t's table.
func (c condition) predicate(s *sql.Selector, t target) *sql.Predicate {
	if c.field == "object" {
		return objectPredicate(c, t)
	}
	if key, ok := strings.CutPrefix(c.field, "metadata."); ok {
		return metadataPredicate(s, c, key)
	}
	col := s.C(t.columns[c.field])
	v := c.values
	switch c.op {
	case "$in", "$is":
		return sql.In(col, v...)
	case "$not_in", "$is_not":
		return sql.Or(sql.NotIn(col, v...), sql.IsNull(col))
	case "$has_value":
		return sql.NotNull(col)
	case "$is_unknown":
		return sql.IsNull(col)
	case "$contains":
		return anyOf(v, func(x any) *sql.Predicate { return sql.Contains(col, x.(string)) })
	case "$not_contain":
		return sql.Not(anyOf(v, func(x any) *sql.Predicate { return sql.Contains(col, x.(string)) }))
	case "$starts_with":
		return anyOf(v, func(x any) *sql.Predicate { return sql.HasPrefix(col, x.(string)) })
	case "$ends_with":
		return anyOf(v, func(x any) *sql.Predicate { return sql.HasSuffix(col, x.(string)) })
	case "$more_than":
		return sql.GT(col, v[0])
	case "$less_than":
		return sql.LT(col, v[0])
	case "$more_than_equal":
		return sql.GTE(col, v[0])
	case "$less_than_equal":
		return sql.LTE(col, v[0])
	case "$after", "$before":
		at, _ := time.Parse(time.RFC3339Nano, v[0].(string))
		if c.op == "$after" {
			return sql.GT(col, at.UTC())
		}
		return sql.LT(col, at.UTC())
	}
	return sql.ExprP("1 = 0")
}

// objectPredicate matches every row of t's kind when the condition names
// it (false otherwise).
func objectPredicate(c condition, t target) *sql.Predicate {
	named := false
	for _, v := range c.values {
		if v == t.object {
			named = true
		}
	}
	switch c.op {
	case "$in", "$is":
		if named {
			return sql.ExprP("1 = 1")
		}
	case "$not_in", "$is_not":
		if !named {
			return sql.ExprP("1 = 1")
		}
	case "$has_value":
		return sql.ExprP("1 = 1")
	}
	return sql.ExprP("1 = 0")
}

// metadataPredicate is a condition on metadata[key].
func metadataPredicate(s *sql.Selector, c condition, key string) *sql.Predicate {
	col, path := s.C("metadata"), sqljson.Path(key)
	v := c.values
	switch c.op {
	case "$in", "$is":
		return anyOf(v, func(x any) *sql.Predicate { return sqljson.ValueEQ(col, x, path) })
	case "$not_in", "$is_not":
		return sql.Not(anyOf(v, func(x any) *sql.Predicate { return sqljson.ValueEQ(col, x, path) }))
	case "$has_value":
		return sqljson.HasKey(col, path)
	case "$is_unknown":
		return sql.Not(sqljson.HasKey(col, path))
	case "$contains":
		return anyOf(v, func(x any) *sql.Predicate { return sqljson.StringContains(col, x.(string), path) })
	case "$not_contain":
		return sql.Not(anyOf(v, func(x any) *sql.Predicate { return sqljson.StringContains(col, x.(string), path) }))
	case "$starts_with":
		return anyOf(v, func(x any) *sql.Predicate { return sqljson.StringHasPrefix(col, x.(string), path) })
	case "$ends_with":
		return anyOf(v, func(x any) *sql.Predicate { return sqljson.StringHasSuffix(col, x.(string), path) })
	case "$more_than":
		return sqljson.ValueGT(col, v[0], path)
	case "$less_than":
		return sqljson.ValueLT(col, v[0], path)
	case "$more_than_equal":
		return sqljson.ValueGTE(col, v[0], path)
	case "$less_than_equal":
		return sqljson.ValueLTE(col, v[0], path)
	}
	return sql.ExprP("1 = 0") // $after/$before on metadata: dates in metadata are strings; not compared
}

// anyOf is the OR of f over the values.
func anyOf(values []any, f func(any) *sql.Predicate) *sql.Predicate {
	preds := make([]*sql.Predicate, len(values))
	for i, v := range values {
		preds[i] = f(v)
	}
	return sql.Or(preds...)
}

// asNumber reads a JSON number as the transports decode it.
func asNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
