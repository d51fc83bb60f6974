package loyaltyv2

import (
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// v2 list query parameters: limit 1–100 (default 10), order created_at or
// -created_at (default newest first), cursor. Field is the ordering field
// ("" = created_at).
type v2Page struct {
	Limit  int
	Desc   bool
	Cursor string
	Field  string
}

func parseV2Page(q url.Values) (v2Page, error) { return parseV2PageBy(q, "created_at", true) }

// parseV2PageBy reads a v2 list's query ordered by field (ascending for
// "field", descending for "-field"; desc is the default direction).
func parseV2PageBy(q url.Values, field string, desc bool) (v2Page, error) {
	p := v2Page{Limit: 10, Desc: desc, Cursor: q.Get("cursor"), Field: field}
	if v, ok := q["limit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v[0]))
		if err != nil || n < 1 || n > 100 {
			return p, apperr.InvalidQueryParams("Query parameter limit must be an integer from 1 to 100, got %q", v[0])
		}
		p.Limit = n
	}
	if v, ok := q["order"]; ok {
		if len(v) != 1 {
			return p, apperr.InvalidQueryParams("Query parameter order must be given once")
		}
		switch v[0] {
		case field:
			p.Desc = false
		case "-" + field:
			p.Desc = true
		default:
			return p, apperr.InvalidQueryParams("Query parameter order must be %s or -%s, got %q", field, field, v[0])
		}
	}
	if _, ok := q["cursor"]; ok && p.Cursor == "" {
		return p, invalidCursor()
	}
	return p, nil
}

func (p v2Page) direction() entgql.OrderDirection {
	if p.Desc {
		return entgql.OrderDirectionDesc
	}
	return entgql.OrderDirectionAsc
}

func (p v2Page) orderName() string {
	field := p.Field
	if field == "" {
		field = "created_at"
	}
	if p.Desc {
		return "-" + field
	}
	return field
}

// filterKey parses filters[field][conditions][$op] with an optional
// trailing [] or [n] (array items).
var filterKey = regexp.MustCompile(`^filters\[([a-z_]+)\](?:\[conditions\]\[(\$[a-z_]+)\])?(?:\[(\d*)\])?$`)

// activityFilter is the parsed filters of an activity list: terms joined
// by the junction, and a canonical form for the cursor fingerprint.
type activityFilter struct {
	or    bool
	terms []filterTerm
	canon string
}

// filterTerm is one condition: id or type $is/$in, created_at $before/$after.
type filterTerm struct {
	field, op string
	values    []string
	at        time.Time
}

// parseActivityFilters reads the interface's filter table (types lists the
// allowed activity types); every problem is a 400 naming the parameter.
// The limits (graph.MaxFilterValues, types) are the graph's, which enforces
// them on every transport; checking them here only names the parameter.
func parseActivityFilters(q url.Values, types []string) (activityFilter, error) {
	var f activityFilter
	var canon []string
	junction := "AND"
	// Gather values per (field, op), accepting repeated keys, [] and [n]
	// suffixes and comma-separated lists for $in.
	type fop struct{ field, op string }
	vals := map[fop][]string{}
	var order []fop
	for key, vs := range q {
		if !strings.HasPrefix(key, "filters") {
			continue
		}
		m := filterKey.FindStringSubmatch(key)
		if m == nil {
			return f, apperr.InvalidQueryParams("Unknown filter parameter %s", key)
		}
		if m[1] == "junction" && m[2] == "" {
			j := strings.ToUpper(strings.TrimSpace(vs[0]))
			if (j != "AND" && j != "OR") || len(vs) != 1 {
				return f, apperr.InvalidQueryParams("Query parameter filters[junction] must be AND or OR, got %q", vs[0])
			}
			junction = j
			continue
		}
		if m[2] == "" {
			return f, apperr.InvalidQueryParams("Filter parameter %s must name a condition, e.g. filters[%s][conditions][$is]", key, m[1])
		}
		k := fop{m[1], m[2]}
		if _, seen := vals[k]; !seen {
			order = append(order, k)
		}
		vals[k] = append(vals[k], vs...)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].field+order[i].op < order[j].field+order[j].op })
	for _, k := range order {
		name := "filters[" + k.field + "][conditions][" + k.op + "]"
		vs := vals[k]
		t := filterTerm{field: k.field, op: k.op}
		switch k.field + k.op {
		case "id$is", "type$is", "created_at$before", "created_at$after":
			if len(vs) != 1 || strings.TrimSpace(vs[0]) == "" {
				return f, apperr.InvalidQueryParams("Query parameter %s must be one non-empty value", name)
			}
			t.values = []string{strings.TrimSpace(vs[0])}
		case "id$in", "type$in":
			for _, v := range vs {
				for _, part := range strings.Split(v, ",") {
					if part = strings.TrimSpace(part); part != "" {
						t.values = append(t.values, part)
					}
				}
			}
			if len(t.values) == 0 {
				return f, apperr.InvalidQueryParams("Query parameter %s must have at least 1 item", name)
			}
			if len(t.values) > loyalty.MaxFilterValues {
				return f, apperr.InvalidQueryParams("Query parameter %s must have at most %d items, got %d", name, loyalty.MaxFilterValues, len(t.values))
			}
		default:
			return f, apperr.InvalidQueryParams("Unsupported filter %s (supported: id $is/$in, type $is/$in, created_at $before/$after)", name)
		}
		if k.field == "type" {
			for _, v := range t.values {
				if !slices.Contains(types, v) {
					return f, apperr.InvalidQueryParams("Query parameter %s must be one of %s, got %q", name, strings.Join(types, ", "), v)
				}
			}
		}
		value := strings.Join(t.values, ",")
		if k.field == "created_at" {
			at, ok := parseFilterTime(t.values[0])
			if !ok {
				return f, apperr.InvalidQueryParams("Query parameter %s must be an ISO 8601 date or date-time, got %q", name, t.values[0])
			}
			t.at, value = at, at.Format(time.RFC3339Nano)
		}
		canon = append(canon, name+"="+value)
		f.terms = append(f.terms, t)
	}
	f.or = junction == "OR"
	f.canon = "junction=" + junction + "&" + strings.Join(canon, "&")
	return f, nil
}

// cardWhere is the filter as a GraphQL where-input of card activities.
func (f activityFilter) cardWhere() *ent.CardActivityWhereInput {
	return activityWhere(f, func(w *ent.CardActivityWhereInput) activityWhereFields {
		return activityWhereFields{&w.ID, &w.IDIn, &w.Type, &w.TypeIn, &w.CreatedAtLT, &w.CreatedAtGT}
	}, func(or bool, terms []*ent.CardActivityWhereInput) *ent.CardActivityWhereInput {
		if or {
			return &ent.CardActivityWhereInput{Or: terms}
		}
		return &ent.CardActivityWhereInput{And: terms}
	})
}

// rewardWhere is the filter as a GraphQL where-input of reward activities.
func (f activityFilter) rewardWhere() *ent.RewardActivityWhereInput {
	return activityWhere(f, func(w *ent.RewardActivityWhereInput) activityWhereFields {
		return activityWhereFields{&w.ID, &w.IDIn, &w.Type, &w.TypeIn, &w.CreatedAtLT, &w.CreatedAtGT}
	}, func(or bool, terms []*ent.RewardActivityWhereInput) *ent.RewardActivityWhereInput {
		if or {
			return &ent.RewardActivityWhereInput{Or: terms}
		}
		return &ent.RewardActivityWhereInput{And: terms}
	})
}

// activityWhereFields points at the where-input fields an activity filter
// sets; card and reward activities have the same ones.
type activityWhereFields struct {
	id            **string
	idIn          *[]string
	typ           **string
	typeIn        *[]string
	before, after **time.Time
}

// activityWhere turns the filter into a where-input of type W: one W per
// term (fields says where its values go), joined by join with OR or AND.
func activityWhere[W any](f activityFilter, fields func(*W) activityWhereFields, join func(or bool, terms []*W) *W) *W {
	if len(f.terms) == 0 {
		return nil
	}
	terms := make([]*W, len(f.terms))
	for i, t := range f.terms {
		w := new(W)
		set := fields(w)
		switch t.field + t.op {
		case "id$is":
			*set.id = &t.values[0]
		case "id$in":
			*set.idIn = t.values
		case "type$is":
			*set.typ = &t.values[0]
		case "type$in":
			*set.typeIn = t.values
		case "created_at$before":
			*set.before = &t.at
		case "created_at$after":
			*set.after = &t.at
		}
		terms[i] = w
	}
	return join(f.or, terms)
}

// parseFilterTime accepts an ISO 8601 date-time or a date (midnight UTC).
func parseFilterTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// queryOf returns the request's query values.
func queryOf(c *gin.Context) url.Values { return c.Request.URL.Query() }
