package loyaltyv2_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// A program's card definition, earning rule and tier structure lists page
// like the other v2 lists: limit, order, an opaque cursor (the documents'
// prefixes), assignment objects; every response passes the strict check.

// assigned is one resource assigned to the program: its id and created_at.
type assigned struct{ id, createdAt string }

// programList is one of the program's assignment lists.
type programList struct {
	path, idField, cursorPrefix string
	want                        []assigned // in created_at, id order
}

// assignAll assigns ids to the program through its batch, 10 at a time.
func assignAll(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup, path string, ids []string) {
	t.Helper()
	for len(ids) > 0 {
		n := min(len(ids), 10)
		var refs []any
		for _, id := range ids[:n] {
			refs = append(refs, map[string]any{"id": id})
		}
		resttest.MustOK(t, e, http.MethodPost, path+"/batch", map[string]any{"assign": refs}, s.H)
		ids = ids[n:]
	}
}

// programLists makes a program with 7 card definitions, 20 earning rules
// and 5 tier structures.
func programLists(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup) []programList {
	t.Helper()
	base := "/v2/loyalties/programs/" + s.Program
	def := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+s.CardDef, nil, s.H)
	defs := []assigned{{s.CardDef, def["created_at"].(string)}}
	var rules, structures []assigned
	create := func(path string, body map[string]any, into *[]assigned) {
		got := resttest.MustOK(t, e, http.MethodPost, path, body, s.H)
		*into = append(*into, assigned{got["id"].(string), got["created_at"].(string)})
	}
	for i := range 6 {
		create("/v2/loyalties/card-definitions", map[string]any{"name": fmt.Sprintf("Def %d", i)}, &defs)
	}
	for range 20 {
		create("/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), &rules)
	}
	for i := range 5 {
		create("/v2/loyalties/tier-structures", map[string]any{"name": fmt.Sprintf("Levels %d", i),
			"type": "POINT_BALANCE", "card_definition_id": s.CardDef}, &structures)
	}
	ids := func(as []assigned) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.id)
		}
		return out
	}
	// Assigned out of creation order: the list's order is created_at's.
	slices.Reverse(rules)
	assignAll(t, e, s, base+"/card-definitions", ids(defs[1:]))
	assignAll(t, e, s, base+"/earning-rules", ids(rules))
	assignAll(t, e, s, base+"/tier-structures", ids(structures))
	lists := []programList{
		{base + "/card-definitions", "card_definition_id", "lcrscdefa_", defs},
		{base + "/earning-rules", "earning_rule_id", "lcrserna_", rules},
		{base + "/tier-structures", "tier_structure_id", "lcrstsa_", structures},
	}
	for i := range lists {
		slices.SortFunc(lists[i].want, func(a, b assigned) int {
			return strings.Compare(a.createdAt+a.id, b.createdAt+b.id)
		})
	}
	return lists
}

// readPages follows the cursor from the first page to the last, checking
// each page's size, object and cursor, and returns the items.
func readPages(t *testing.T, e *resttest.Env, h resttest.Headers, l programList, q url.Values, limit int) []assigned {
	t.Helper()
	var got []assigned
	for page := 0; ; page++ {
		body := resttest.MustOK(t, e, http.MethodGet, l.path+"?"+q.Encode(), nil, h)
		data := body["data"].([]any)
		if len(data) > limit || len(data) == 0 {
			t.Fatalf("%s page %d has %d items (limit %d)", l.path, page, len(data), limit)
		}
		for _, d := range data {
			item := d.(map[string]any)
			got = append(got, assigned{item[l.idField].(string), item["created_at"].(string)})
		}
		if body["cursor"] == nil {
			return got
		}
		if len(data) != limit {
			t.Fatalf("%s page %d: %d items and a cursor (limit %d)", l.path, page, len(data), limit)
		}
		next := body["cursor"].(map[string]any)["next"].(string)
		if !strings.HasPrefix(next, l.cursorPrefix) {
			t.Fatalf("%s cursor %q, want prefix %s", l.path, next, l.cursorPrefix)
		}
		q.Set("cursor", next)
		if page > 100 {
			t.Fatal("paging does not end")
		}
	}
}

func TestProgramAssignmentListsPageInEveryOrder(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	for _, l := range programLists(t, e, s) {
		for _, c := range []struct {
			order string // "" = the default, newest first
			limit int    // 0 = the default, 10
		}{{"", 0}, {"created_at", 3}, {"-created_at", 3}, {"created_at", 5}, {"-created_at", 10}, {"created_at", 100}} {
			t.Run(fmt.Sprintf("%s order=%s limit=%d", l.path[strings.LastIndex(l.path, "/")+1:], c.order, c.limit), func(t *testing.T) {
				q, limit := url.Values{}, 10
				if c.limit != 0 {
					q.Set("limit", fmt.Sprint(c.limit))
					limit = c.limit
				}
				if c.order != "" {
					q.Set("order", c.order)
				}
				want := slices.Clone(l.want)
				if c.order != "created_at" {
					slices.Reverse(want)
				}
				if got := readPages(t, e, s.H, l, q, limit); !slices.Equal(got, want) {
					t.Fatalf("items\n got %v\nwant %v", got, want)
				}
			})
		}
	}
	// The card definition assignment names the definition's type.
	first := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/card-definitions?limit=1", nil, s.H)
	if item := first["data"].([]any)[0].(map[string]any); item["card_type"] != "INDIVIDUAL" || item["object"] != "program_card_definition" {
		t.Errorf("card definition assignment %v", item)
	}
}

func TestProgramAssignmentListsRefuseBadParameters(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	lists := programLists(t, e, s)
	other := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Other",
		"card_definitions": []any{map[string]any{"id": s.CardDef}}}, s.H)["id"].(string)
	cursorOf := func(path string) string {
		t.Helper()
		body := resttest.MustOK(t, e, http.MethodGet, path+"?limit=1", nil, s.H)
		return body["cursor"].(map[string]any)["next"].(string)
	}
	for i, l := range lists {
		name := l.path[strings.LastIndex(l.path, "/")+1:]
		t.Run(name, func(t *testing.T) {
			for q, param := range map[string]string{
				"limit=0": "limit", "limit=101": "limit", "limit=ten": "limit",
				"order=name": "order", "order=-updated_at": "order", "order=created_at&order=-created_at": "order",
				"filters[id][conditions][$is]=x": "filters",
			} {
				body := resttest.WantErrorKey(t, e.Do(http.MethodGet, l.path+"?"+q, nil, s.H), http.StatusBadRequest, "invalid_query_params")
				if d, _ := body["details"].(string); !strings.Contains(d, param) {
					t.Errorf("%s: details %q do not name %s", q, d, param)
				}
			}
			next := cursorOf(l.path)
			neighbour := lists[(i+1)%len(lists)].path
			for what, q := range map[string]string{
				"garbage":     "cursor=" + l.cursorPrefix + "abc",
				"empty":       "cursor=",
				"other order": "order=created_at&cursor=" + url.QueryEscape(next),
				"other list":  "cursor=" + url.QueryEscape(cursorOf(neighbour)),
			} {
				if r := e.Do(http.MethodGet, l.path+"?"+q, nil, s.H); r.Status != http.StatusBadRequest {
					t.Errorf("%s: %d %s", what, r.Status, r.Body)
				} else {
					resttest.WantErrorKey(t, r, http.StatusBadRequest, "invalid_or_expired_cursor")
				}
			}
			// Another program's list does not continue from this one's cursor.
			otherPath := strings.Replace(l.path, s.Program, other, 1)
			resttest.WantErrorKey(t, e.Do(http.MethodGet, otherPath+"?cursor="+url.QueryEscape(next), nil, s.H),
				http.StatusBadRequest, "invalid_or_expired_cursor")
			resttest.WantErrorKey(t, e.Do(http.MethodGet, strings.Replace(l.path, s.Program, "lprg_00", 1), nil, s.H),
				http.StatusNotFound, "not_found")
		})
	}
}
