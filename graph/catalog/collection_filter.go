package catalog

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/graph/apperr"
)

// The filter of an AUTO_UPDATE collection (reference: cart-promotions §2):
// {"junction": "and"|"or", "<field>": {"conditions": {"$op": [values]}}, …}.
// It is evaluated against the catalogue whenever the collection is read,
// products and SKUs independently (a SKU matches on its own columns, not
// because its product does).

// collectionFields are the filter's fields; attributes and skus are the
// reference's too but not evaluated yet (400 naming them).
var collectionFields = []string{"id", "product_id", "source_id", "name", "price", "object", "image_url",
	"created_at", "updated_at", "metadata.<key>"}

// collectionOperators are the conditions the filter evaluates.
var collectionOperators = []string{"$in", "$not_in", "$is", "$is_not", "$has_value", "$is_unknown", "$contains",
	"$not_contain", "$starts_with", "$ends_with", "$more_than", "$less_than", "$more_than_equal",
	"$less_than_equal", "$after", "$before"}

// target is the table a filter is evaluated on: its column for each
// field (name is a SKU's sku; product_id a product's own id).
type target struct {
	object  string
	columns map[string]string
}

var (
	productTarget = target{object: "product", columns: map[string]string{"id": "id", "product_id": "id",
		"source_id": "source_id", "name": "name", "price": "price", "image_url": "image_url",
		"created_at": "created_at", "updated_at": "updated_at"}}
	skuTarget = target{object: "sku", columns: map[string]string{"id": "id", "product_id": "product_id",
		"source_id": "source_id", "name": "sku", "price": "price", "image_url": "image_url",
		"created_at": "created_at", "updated_at": "updated_at"}}
)

// condition is one parsed condition of a field.
type condition struct {
	field, op string
	values    []any
}

// parsedFilter is a checked filter.
type parsedFilter struct {
	or         bool
	conditions []condition
}

// lowerJunction is a checked filter as stored: its junction in the
// documents' case (and, or; the real service's answers), whatever case was
// sent. The filter is copied.
func lowerJunction(f map[string]any) map[string]any {
	out := make(map[string]any, len(f))
	for k, v := range f {
		out[k] = v
	}
	if j, ok := f["junction"].(string); ok {
		out["junction"] = strings.ToLower(j)
	}
	return out
}

// parseCollectionFilter checks a filter: a junction (and/or, any case)
// and known fields with known operators. The 400s name the property.
func parseCollectionFilter(f map[string]any) (*parsedFilter, error) {
	if len(f) == 0 {
		return nil, apperr.InvalidPayload("'AUTO_UPDATE' collection must contain valid filter with 'junction' property")
	}
	j, ok := f["junction"].(string)
	if !ok || (!strings.EqualFold(j, "and") && !strings.EqualFold(j, "or")) {
		return nil, apperr.InvalidPayload("Property .filter has wrong `junction` property. It must be one of: and, or")
	}
	out := &parsedFilter{or: strings.EqualFold(j, "or")}
	keys := make([]string, 0, len(f))
	for k := range f {
		if k != "junction" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, field := range keys {
		if _, known := productTarget.columns[field]; !known && field != "object" &&
			!(strings.HasPrefix(field, "metadata.") && len(field) > len("metadata.")) {
			return nil, apperr.InvalidPayload("Property .filter.%s is not a filter field: use one of %s", field,
				strings.Join(collectionFields, ", "))
		}
		spec, _ := f[field].(map[string]any)
		conds, _ := spec["conditions"].(map[string]any)
		if len(conds) == 0 {
			return nil, apperr.InvalidPayload("Property .filter.%s must be {\"conditions\": {\"$operator\": [values]}}", field)
		}
		ops := make([]string, 0, len(conds))
		for op := range conds {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			if !contains(collectionOperators, op) {
				return nil, apperr.InvalidPayload("Property .filter.%s.conditions.%s is not an operator: use one of %s",
					field, op, strings.Join(collectionOperators, ", "))
			}
			values, isList := conds[op].([]any)
			if !isList {
				values = []any{conds[op]}
			}
			c := condition{field: field, op: op, values: values}
			if err := c.check(); err != nil {
				return nil, err
			}
			out.conditions = append(out.conditions, c)
		}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// check refuses values an operator cannot use.
func (c condition) check() error {
	path := fmt.Sprintf(".filter.%s.conditions.%s", c.field, c.op)
	switch c.op {
	case "$has_value", "$is_unknown":
		return nil
	case "$more_than", "$less_than", "$more_than_equal", "$less_than_equal":
		if len(c.values) != 1 {
			return apperr.InvalidPayload("Property %s must hold one number", path)
		}
		n, ok := asNumber(c.values[0])
		if !ok {
			return apperr.InvalidPayload("Property %s must hold one number", path)
		}
		c.values[0] = n
	case "$after", "$before":
		if len(c.values) != 1 {
			return apperr.InvalidPayload("Property %s must hold one date-time", path)
		}
		s, _ := c.values[0].(string)
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return apperr.InvalidPayload("Property %s must hold one date-time", path)
		}
	case "$contains", "$not_contain", "$starts_with", "$ends_with":
		for _, v := range c.values {
			if _, ok := v.(string); !ok {
				return apperr.InvalidPayload("Property %s must hold strings", path)
			}
		}
	}
	if len(c.values) == 0 {
		return apperr.InvalidPayload("Property %s must hold at least one value", path)
	}
	return nil
}

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
