package httpkit

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/promoengine/promoengine/graph/apperr"
)

// conditionFilterKey parses filters[field][conditions][$op] (with an
// optional [] or [n]) and filters[junction].
var conditionFilterKey = regexp.MustCompile(`^filters\[([a-z_]+)\](?:\[conditions\]\[(\$[a-z_]+)\])?(?:\[(\d*)\])?$`)

// ConditionFilter is one filters[field][conditions][op] of a list query
// with its values (repeated keys, [] and [n] suffixes and comma-separated
// lists gathered).
type ConditionFilter struct {
	Field, Op string
	Values    []string
}

// ConditionFilters reads a list query's filters[…] parameters (the
// documents' deepObject filter syntax) and filters[junction] (and|or,
// any case; or reports OR). What the domain does not know it refuses by
// name; a key that is not of this shape is a 400 here.
func ConditionFilters(q url.Values) (filters []ConditionFilter, or bool, err error) {
	keys := make([]string, 0, len(q))
	for k := range q {
		if strings.HasPrefix(k, "filters") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	byKey := map[[2]string]int{}
	for _, key := range keys {
		m := conditionFilterKey.FindStringSubmatch(key)
		if m == nil {
			return nil, false, apperr.InvalidQueryParams("Unknown filter parameter %s", key)
		}
		if m[1] == "junction" && m[2] == "" {
			switch strings.ToLower(q.Get(key)) {
			case "and":
			case "or":
				or = true
			default:
				return nil, false, apperr.InvalidQueryParams("Query parameter filters[junction] must be AND or OR")
			}
			continue
		}
		if m[2] == "" {
			return nil, false, apperr.InvalidQueryParams("Filter parameter %s must name a condition, e.g. filters[%s][conditions][$is]", key, m[1])
		}
		var values []string
		for _, v := range q[key] {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					values = append(values, part)
				}
			}
		}
		k := [2]string{m[1], m[2]}
		if i, ok := byKey[k]; ok {
			filters[i].Values = append(filters[i].Values, values...)
			continue
		}
		byKey[k] = len(filters)
		filters = append(filters, ConditionFilter{Field: m[1], Op: m[2], Values: values})
	}
	return filters, or, nil
}
