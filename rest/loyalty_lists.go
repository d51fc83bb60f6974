package rest

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
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/graph/apperr"
)

// v2 list query parameters: limit 1–100 (default 10), order created_at or
// -created_at (default newest first), cursor.
type v2Page struct {
	Limit  int
	Desc   bool
	Cursor string
}

func parseV2Page(q url.Values) (v2Page, error) {
	p := v2Page{Limit: 10, Desc: true, Cursor: q.Get("cursor")}
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
		case "created_at":
			p.Desc = false
		case "-created_at":
		default:
			return p, apperr.InvalidQueryParams("Query parameter order must be created_at or -created_at, got %q", v[0])
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
	if p.Desc {
		return "-created_at"
	}
	return "created_at"
}

// filterKey parses filters[field][conditions][$op] with an optional
// trailing [] or [n] (array items).
var filterKey = regexp.MustCompile(`^filters\[([a-z_]+)\](?:\[conditions\]\[(\$[a-z_]+)\])?(?:\[(\d*)\])?$`)

// cardActivityFilter is the parsed filters of list card activities.
type cardActivityFilter struct {
	where *ent.CardActivityWhereInput
	canon string // canonical form, part of the cursor fingerprint
}

const maxIn = 100

// parseCardActivityFilters reads the interface's filter table; every
// problem is a 400 naming the parameter.
func parseCardActivityFilters(q url.Values) (cardActivityFilter, error) {
	var terms []*ent.CardActivityWhereInput
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
			return cardActivityFilter{}, apperr.InvalidQueryParams("Unknown filter parameter %s", key)
		}
		if m[1] == "junction" && m[2] == "" {
			j := strings.ToUpper(strings.TrimSpace(vs[0]))
			if (j != "AND" && j != "OR") || len(vs) != 1 {
				return cardActivityFilter{}, apperr.InvalidQueryParams("Query parameter filters[junction] must be AND or OR, got %q", vs[0])
			}
			junction = j
			continue
		}
		if m[2] == "" {
			return cardActivityFilter{}, apperr.InvalidQueryParams("Filter parameter %s must name a condition, e.g. filters[%s][conditions][$is]", key, m[1])
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
		one := func() (string, error) {
			if len(vs) != 1 || strings.TrimSpace(vs[0]) == "" {
				return "", apperr.InvalidQueryParams("Query parameter %s must be one non-empty value", name)
			}
			return strings.TrimSpace(vs[0]), nil
		}
		list := func() ([]string, error) {
			var out []string
			for _, v := range vs {
				for _, part := range strings.Split(v, ",") {
					if part = strings.TrimSpace(part); part != "" {
						out = append(out, part)
					}
				}
			}
			if len(out) == 0 {
				return nil, apperr.InvalidQueryParams("Query parameter %s must have at least 1 item", name)
			}
			if len(out) > maxIn {
				return nil, apperr.InvalidQueryParams("Query parameter %s must have at most %d items, got %d", name, maxIn, len(out))
			}
			return out, nil
		}
		checkTypes := func(ts []string) error {
			for _, t := range ts {
				if !slices.Contains(schema.CardActivityTypes, t) {
					return apperr.InvalidQueryParams("Query parameter %s must be one of %s, got %q", name, strings.Join(schema.CardActivityTypes, ", "), t)
				}
			}
			return nil
		}
		term := &ent.CardActivityWhereInput{}
		switch k.field + k.op {
		case "id$is":
			v, err := one()
			if err != nil {
				return cardActivityFilter{}, err
			}
			term.ID = &v
			canon = append(canon, name+"="+v)
		case "id$in":
			v, err := list()
			if err != nil {
				return cardActivityFilter{}, err
			}
			term.IDIn = v
			canon = append(canon, name+"="+strings.Join(v, ","))
		case "type$is":
			v, err := one()
			if err != nil {
				return cardActivityFilter{}, err
			}
			if err := checkTypes([]string{v}); err != nil {
				return cardActivityFilter{}, err
			}
			term.Type = &v
			canon = append(canon, name+"="+v)
		case "type$in":
			v, err := list()
			if err != nil {
				return cardActivityFilter{}, err
			}
			if err := checkTypes(v); err != nil {
				return cardActivityFilter{}, err
			}
			term.TypeIn = v
			canon = append(canon, name+"="+strings.Join(v, ","))
		case "created_at$before", "created_at$after":
			v, err := one()
			if err != nil {
				return cardActivityFilter{}, err
			}
			t, ok := parseFilterTime(v)
			if !ok {
				return cardActivityFilter{}, apperr.InvalidQueryParams("Query parameter %s must be an ISO 8601 date or date-time, got %q", name, v)
			}
			if k.op == "$before" {
				term.CreatedAtLT = &t
			} else {
				term.CreatedAtGT = &t
			}
			canon = append(canon, name+"="+t.Format(time.RFC3339Nano))
		default:
			return cardActivityFilter{}, apperr.InvalidQueryParams("Unsupported filter %s (supported: id $is/$in, type $is/$in, created_at $before/$after)", name)
		}
		terms = append(terms, term)
	}
	f := cardActivityFilter{canon: "junction=" + junction + "&" + strings.Join(canon, "&")}
	switch {
	case len(terms) == 0:
	case junction == "OR":
		f.where = &ent.CardActivityWhereInput{Or: terms}
	default:
		f.where = &ent.CardActivityWhereInput{And: terms}
	}
	return f, nil
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
