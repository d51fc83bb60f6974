package catalog

import (
	"fmt"
	"sort"
	"strings"
	"time"

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
