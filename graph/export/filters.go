package export

import (
	"sort"
	"strconv"
	"strings"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/graph/apperr"
)

// An export's filters (exports.json, Export*Filters): {"junction": "and"|
// "or", "<member>": {"conditions": {"$op": value or [values]}}, ...}. Each
// exported object names the members it documents (filterColumn: a column
// of its table, a key of a JSON column, or a column of a related table);
// the additional members its document allows ("metadata.<key>",
// "address.<key>") read those JSON columns. The operators are those of
// FiltersCondition that make sense for the member's kind (filter_ops.go).

// filterKind is how a member's values are compared.
type filterKind int

const (
	textFilter filterKind = iota
	timeFilter
	numberFilter
	boolFilter
)

// filterColumn is what a filter member reads.
type filterColumn struct {
	col  string
	kind filterKind
	// path, when set, is the key path inside the JSON column col.
	path []string
	// via, when set, reads the member from another table: the row's col
	// is one of via.key of via's rows whose via.col meets the conditions.
	via *filterVia
}

// filterVia is a related table a filter member reads: its rows whose
// any member of on meets the conditions.
type filterVia struct {
	table, key string
	on         []filterColumn
	// scoped tables have a project_id column the subquery is scoped by.
	scoped bool
}

// filterSet is an exported object's documented filter members and the
// prefixes of the JSON members it allows (prefix → JSON column).
type filterSet struct {
	members  map[string]filterColumn
	prefixes map[string]string
}

func textCol(col string) filterColumn   { return filterColumn{col: col} }
func timeCol(col string) filterColumn   { return filterColumn{col: col, kind: timeFilter} }
func numberCol(col string) filterColumn { return filterColumn{col: col, kind: numberFilter} }
func boolCol(col string) filterColumn   { return filterColumn{col: col, kind: boolFilter} }

// via is a member read from a related table: the row's col is one of the
// key column of table's rows whose any of on meets the conditions.
func via(col, table, key string, scoped bool, on ...filterColumn) filterColumn {
	return filterColumn{col: col, via: &filterVia{table: table, key: key, on: on, scoped: scoped}}
}

// member finds a filter member, a documented one or one under an allowed
// JSON prefix.
func (fs filterSet) member(name string) (filterColumn, bool) {
	if c, ok := fs.members[name]; ok {
		return c, true
	}
	for prefix, col := range fs.prefixes {
		if key, ok := strings.CutPrefix(name, prefix+"."); ok && key != "" {
			return filterColumn{col: col, path: strings.Split(key, ".")}, true
		}
	}
	return filterColumn{}, false
}

// names lists the members a 400 names.
func (fs filterSet) names() string {
	names := make([]string, 0, len(fs.members)+len(fs.prefixes)+1)
	names = append(names, "junction")
	for k := range fs.members {
		names = append(names, k)
	}
	for p := range fs.prefixes {
		names = append(names, p+".<key>")
	}
	sort.Strings(names[1:])
	return strings.Join(names, ", ")
}

// parseFilters reads an export's filters as one selector predicate (the
// members' conditions joined by the junction, and by default) for the
// rows of projectID; a member or condition not understood is a 400 naming
// the allowed ones. No filters gives no predicate.
func parseFilters(filters map[string]any, fs filterSet, projectID string) ([]func(*entsql.Selector), error) {
	keys := make([]string, 0, len(filters))
	for k := range filters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	or := false
	var preds []func(*entsql.Selector)
	for _, field := range keys {
		if field == "junction" {
			j, _ := filters[field].(string)
			switch strings.ToLower(j) {
			case "and":
			case "or":
				or = true
			default:
				return nil, apperr.InvalidPayload("Property .parameters.filters.junction must be and or or, got %v", filters[field])
			}
			continue
		}
		col, ok := fs.member(field)
		if !ok {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s is not supported; the filters are %s", field, fs.names())
		}
		f, _ := filters[field].(map[string]any)
		conds, _ := f["conditions"].(map[string]any)
		if len(conds) == 0 {
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s must be an object with conditions", field)
		}
		ops := make([]string, 0, len(conds))
		for op := range conds {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			p, err := filterCondition(field, col, op, conds[op], projectID)
			if err != nil {
				return nil, err
			}
			preds = append(preds, p)
		}
	}
	switch {
	case len(preds) == 0:
		return nil, nil
	case or:
		return []func(*entsql.Selector){entsql.OrPredicates(preds...)}, nil
	}
	return []func(*entsql.Selector){entsql.AndPredicates(preds...)}, nil
}

// filterCondition is one condition on a member, as a selector predicate.
func filterCondition(field string, col filterColumn, op string, raw any, projectID string) (func(*entsql.Selector), error) {
	values, _ := raw.([]any)
	if values == nil {
		values = []any{raw}
	}
	name := ".parameters.filters." + field + ".conditions." + op
	if col.via == nil {
		cond, err := conditionOn(name, col, op, values)
		if err != nil {
			return nil, err
		}
		return func(s *entsql.Selector) { s.Where(cond(s.C(col.col))) }, nil
	}
	v := col.via
	on := make([]func(*entsql.Selector), len(v.on))
	for i, c := range v.on {
		p, err := filterCondition(field, c, op, raw, projectID)
		if err != nil {
			return nil, err
		}
		on[i] = p
	}
	return func(s *entsql.Selector) {
		sub := entsql.Dialect(s.Dialect()).Select(v.key).From(entsql.Table(v.table))
		entsql.OrPredicates(on...)(sub)
		if v.scoped {
			sub.Where(entsql.EQ(sub.C("project_id"), projectID))
		}
		s.Where(entsql.In(s.C(col.col), sub))
	}, nil
}

// storedFilters are an export's filters as its parameters show them, in
// the documents' shape (exports.json: Junction is and|or, a condition's
// value an array of strings, numbers or objects): the junction in lower
// case, a single value as a one-element array, a boolean as its text. The
// meaning is unchanged (parseFilters reads either form).
func storedFilters(filters map[string]any) map[string]any {
	out := make(map[string]any, len(filters))
	for field, raw := range filters {
		if j, ok := raw.(string); ok && field == "junction" {
			out[field] = strings.ToLower(j)
			continue
		}
		f, ok := raw.(map[string]any)
		conds, ok2 := f["conditions"].(map[string]any)
		if !ok || !ok2 {
			out[field] = raw
			continue
		}
		member := make(map[string]any, len(f))
		for k, v := range f {
			member[k] = v
		}
		stored := make(map[string]any, len(conds))
		for op, v := range conds {
			values, isList := v.([]any)
			if !isList {
				values = []any{v}
			}
			list := make([]any, len(values))
			for i, x := range values {
				if b, isBool := x.(bool); isBool {
					x = strconv.FormatBool(b)
				}
				list[i] = x
			}
			stored[op] = list
		}
		member["conditions"] = stored
		out[field] = member
	}
	return out
}
