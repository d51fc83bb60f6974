package bin

import (
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
)

// FilterFields are the fields a bin filter may name.
var FilterFields = []string{"id", "resource_type", "resource_name", "resource_id"}

// FilterOperators are the documented conditions of a bin filter.
var FilterOperators = []string{"$in", "$not_in", "$is", "$is_not", "$has_value", "$is_unknown",
	"$starts_with", "$ends_with", "$contains", "$not_contain"}

// ResourceTypes are the documented resource_type values.
var ResourceTypes = []string{TypeCampaign, TypeProduct, TypeSku, TypeVoucher}

// maxFilterValues bounds the values of one $in / $not_in.
const maxFilterValues = 100

// Filter is one condition: filters[Field][conditions][Op] = Values.
type Filter struct {
	Field  string   `json:"field"`
	Op     string   `json:"op"`
	Values []string `json:"values"`
}

// filterPredicates reads the filters (400 naming what is not understood).
func filterPredicates(filters []Filter) ([]predicate.BinEntry, error) {
	var out []predicate.BinEntry
	for _, f := range filters {
		p, err := filterPredicate(f)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// filterPredicate is one filter as a predicate on the entries.
func filterPredicate(f Filter) (predicate.BinEntry, error) {
	name := "filters[" + f.Field + "][conditions][" + f.Op + "]"
	column := map[string]string{"id": binentry.FieldID, "resource_type": binentry.FieldResourceType,
		"resource_name": binentry.FieldResourceName, "resource_id": binentry.FieldResourceID}[f.Field]
	if column == "" {
		return nil, apperr.InvalidQueryParams("Unknown filter %s (filters: %s)", name, strings.Join(FilterFields, ", "))
	}
	if !slices.Contains(FilterOperators, f.Op) {
		return nil, apperr.InvalidQueryParams("Query parameter %s: the condition must be one of %s", name, strings.Join(FilterOperators, ", "))
	}
	switch f.Op {
	case "$has_value", "$is_unknown":
		// Every listed field always has a value.
		if f.Op == "$has_value" {
			return func(*sql.Selector) {}, nil
		}
		return func(s *sql.Selector) { s.Where(sql.False()) }, nil
	}
	if len(f.Values) == 0 || slices.Contains(f.Values, "") {
		return nil, apperr.InvalidQueryParams("Query parameter %s must have a non-empty value", name)
	}
	if len(f.Values) > maxFilterValues {
		return nil, apperr.InvalidQueryParams("Query parameter %s takes at most %d values", name, maxFilterValues)
	}
	if f.Op != "$in" && f.Op != "$not_in" && len(f.Values) != 1 {
		return nil, apperr.InvalidQueryParams("Query parameter %s takes one value", name)
	}
	if f.Field == "resource_type" && (f.Op == "$in" || f.Op == "$not_in" || f.Op == "$is" || f.Op == "$is_not") {
		for _, v := range f.Values {
			if !slices.Contains(ResourceTypes, v) {
				return nil, apperr.InvalidQueryParams("Query parameter %s must be one of %s, got %q", name, strings.Join(ResourceTypes, ", "), v)
			}
		}
	}
	values := make([]any, len(f.Values))
	for i, v := range f.Values {
		values[i] = v
	}
	v := f.Values[0]
	return func(s *sql.Selector) {
		col := s.C(column)
		switch f.Op {
		case "$in", "$is":
			s.Where(sql.In(col, values...))
		case "$not_in", "$is_not":
			s.Where(sql.NotIn(col, values...))
		case "$starts_with":
			s.Where(sql.HasPrefix(col, v))
		case "$ends_with":
			s.Where(sql.HasSuffix(col, v))
		case "$contains":
			s.Where(sql.Contains(col, v))
		case "$not_contain":
			s.Where(sql.Not(sql.Contains(col, v)))
		}
	}, nil
}
