package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestV2NeedsBearerAndKeys(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	for name, h := range map[string]resttest.Headers{
		"keys only":   app,
		"bearer only": {"Authorization": s.h["Authorization"]},
		"nothing":     {},
	} {
		r := e.Do(http.MethodGet, s.cardPath()+"/activities", nil, h)
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
		r = e.Do(http.MethodPost, "/v2/loyalties/incentives", []byte(`{}`), h)
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s (incentives): %d %s", name, r.Status, r.Body)
		}
	}
}

func TestMemberCreationRecordsCardActivities(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	got := mustOK(t, e, http.MethodGet, s.cardPath()+"/activities?order=created_at", nil, s.h)
	if got["object"] != "list" || got["cursor"] != nil {
		t.Fatalf("envelope: %v", got)
	}
	data := got["data"].([]any)
	var types []string
	group := ""
	for _, d := range data {
		a := d.(map[string]any)
		types = append(types, a["type"].(string))
		if group == "" {
			group, _ = a["group_id"].(string)
		}
		if a["group_id"] != group || group == "" {
			t.Errorf("group_id %v, want one shared id", a["group_id"])
		}
		src := a["source"].(map[string]any)
		key := src["api_key"].(map[string]any)
		if src["channel"] != "API" || key["app_id"] != e.Project.AppID {
			t.Errorf("source = %v", src)
		}
		if !strings.HasPrefix(a["id"].(string), "lacrd_") || !timestampRE.MatchString(a["created_at"].(string)) {
			t.Errorf("activity shape: %v", a)
		}
	}
	want := "vl.card.created,vl.card.code_generation.succeeded,vl.card.assigned"
	if strings.Join(types, ",") != want {
		t.Errorf("types %v, want %s", types, want)
	}
	// The card's code follows the card definition's code configuration.
	m := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.program+"/members/"+s.member, nil, s.h)
	code := memberCardAt(t, m, 0)["code"].(string)
	if len(code) != len("GOLD-######") || !strings.HasPrefix(code, "GOLD-") {
		t.Errorf("card code %q", code)
	}
}

// TestActivitySourceShape: an activity caused with a server-side key names
// the channel and the key, with client_app_id present and null; REST and
// GraphQL show the same source.
func TestActivitySourceShape(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	want := `{"api_key":{"app_id":"` + e.Project.AppID + `","client_app_id":null,"name":"default"},"channel":"API"}`
	got := mustOK(t, e, http.MethodGet, s.cardPath()+"/activities", nil, s.h)
	for _, d := range got["data"].([]any) {
		if src := mustJSON(d.(map[string]any)["source"]); src != want {
			t.Errorf("card activity source = %s, want %s", src, want)
		}
	}
	rw := mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL",
		"material": v2ProductMaterial(t, e)}, s.h)
	acts := mustOK(t, e, http.MethodGet, "/v2/loyalties/rewards/"+rw["id"].(string)+"/activities", nil, s.h)
	if data := acts["data"].([]any); len(data) == 0 || mustJSON(data[0].(map[string]any)["source"]) != want {
		t.Errorf("reward activities = %v", acts)
	}
	q := `query($p: ID!, $m: ID!, $c: ID!) { cardActivities(programID: $p, memberID: $m, cardID: $c, first: 1) { edges { node { source } } } }`
	r := e.GraphQL(resttest.App(e.Project), q, map[string]any{"p": s.program, "m": s.member, "c": s.card})
	if len(r.Errors) > 0 {
		t.Fatalf("cardActivities: %v", r.Errors)
	}
	edges := r.Data["cardActivities"].(map[string]any)["edges"].([]any)
	if len(edges) != 1 || mustJSON(edges[0].(map[string]any)["node"].(map[string]any)["source"]) != want {
		t.Errorf("graphql source = %v", edges)
	}
}

func TestCardActivitiesNotFound(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	// A second member of the same program with its own card.
	cust := mustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "member-2"}, resttest.App(e.Project))
	m2 := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.program+"/members", map[string]any{"customer_id": cust["id"]}, s.h)
	other := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Other"}, s.h)["id"].(string)
	base := "/v2/loyalties/programs/"
	for _, c := range []struct{ path, typ, id string }{
		{base + "lprg_00/members/" + s.member + "/cards/" + s.card + "/activities", "program", "lprg_00"},
		{base + s.program + "/members/lmbr_00/cards/" + s.card + "/activities", "member", "lmbr_00"},
		{base + s.program + "/members/" + s.member + "/cards/lcrd_00/activities", "card", "lcrd_00"},
		{base + other + "/members/" + s.member + "/cards/" + s.card + "/activities", "member", s.member},
		{base + s.program + "/members/" + m2["id"].(string) + "/cards/" + s.card + "/activities", "card", s.card},
		{"/v2/loyalties/rewards/lrew_00/activities", "reward", "lrew_00"},
	} {
		body := wantErrorKey(t, e.Do(http.MethodGet, c.path, nil, s.h), 404, "not_found")
		if body["resource_type"] != c.typ || body["resource_id"] != c.id {
			t.Errorf("%s: %v", c.path, body)
		}
	}
}

// insertActivities stores n activities of the card directly, several per
// millisecond (so paging must break ties on id), all types in turn.
func insertActivities(t *testing.T, e *resttest.Env, projectID, cardID string, n int, base time.Time) {
	t.Helper()
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: projectID})
	types := []string{"vl.card.created", "vl.card.assigned", "vl.card.unassigned", "vl.card.code_generation.succeeded", "vl.card.code_generation.failed"}
	builders := make([]*ent.CardActivityCreate, n)
	for i := range builders {
		builders[i] = e.DB.Client.CardActivity.Create().SetCardID(cardID).SetType(types[i%len(types)]).
			SetData(map[string]any{"i": i}).SetCreatedAt(base.Add(time.Duration(i/3) * time.Millisecond))
	}
	if _, err := e.DB.Client.CardActivity.CreateBulk(builders...).Save(ctx); err != nil {
		t.Fatal(err)
	}
}

// pageAll follows cursors from first to last page and returns the ids.
func pageAll(t *testing.T, e *resttest.Env, h resttest.Headers, path string, q url.Values, during func()) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for page := 0; ; page++ {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		if cursor != "" {
			qq.Set("cursor", cursor)
		}
		got := mustOK(t, e, http.MethodGet, path+"?"+qq.Encode(), nil, h)
		for _, d := range got["data"].([]any) {
			ids = append(ids, d.(map[string]any)["id"].(string))
		}
		if during != nil {
			during()
		}
		if got["cursor"] == nil {
			return ids
		}
		c := got["cursor"].(map[string]any)
		if !timestampRE.MatchString(c["expires_at"].(string)) {
			t.Fatalf("cursor expires_at %v", c["expires_at"])
		}
		cursor = c["next"].(string)
		if page > 1000 {
			t.Fatal("paging does not end")
		}
	}
}

func TestCardActivityPagingWithConcurrentInserts(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	insertActivities(t, e, e.Project.ProjectID, s.card, 300, base)
	all := map[string]bool{}
	for _, id := range pageAll(t, e, s.h, s.cardPath()+"/activities", url.Values{"limit": {"100"}}, nil) {
		all[id] = true
	}
	if len(all) != 303 {
		t.Fatalf("%d activities, want 303", len(all))
	}
	for _, order := range []string{"created_at", "-created_at"} {
		t.Run(order, func(t *testing.T) {
			// Another writer adds activities (some inside the range already
			// paged over, some after it) while the pages are read: two per
			// page read, so that paging ends however slow a page is (a
			// writer on its own clock outran a slow reader for ever).
			stop := make(chan struct{})
			pageRead := make(chan struct{}, 1)
			var wg sync.WaitGroup
			wg.Add(1)
			var added atomic.Int64
			go func() {
				defer wg.Done()
				ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID})
				for i := 0; ; i++ {
					if i%2 == 0 {
						select {
						case <-stop:
							return
						case <-pageRead:
						}
					}
					at := base.Add(time.Duration(i%100) * time.Millisecond)
					if i%2 == 1 {
						at = time.Now().UTC().Truncate(time.Millisecond)
					}
					if _, err := e.DB.Client.CardActivity.Create().SetCardID(s.card).SetType("vl.card.assigned").
						SetData(map[string]any{}).SetCreatedAt(at).Save(ctx); err != nil {
						t.Error(err)
						return
					}
					added.Add(1)
				}
			}()
			nextPage := func() {
				select {
				case pageRead <- struct{}{}:
				default: // the writer is still busy with the last page's two
				}
			}
			ids := pageAll(t, e, s.h, s.cardPath()+"/activities", url.Values{"limit": {"17"}, "order": {order}}, nextPage)
			close(stop)
			wg.Wait()
			if added.Load() == 0 {
				t.Fatal("no concurrent inserts happened")
			}
			seen := map[string]bool{}
			for _, id := range ids {
				if seen[id] {
					t.Fatalf("activity %s returned twice", id)
				}
				seen[id] = true
			}
			for id := range all {
				if !seen[id] {
					t.Fatalf("activity %s lost", id)
				}
			}
			// Order holds across pages.
			got := mustOK(t, e, http.MethodGet, s.cardPath()+"/activities?limit=100&order="+order, nil, s.h)
			var prev string
			for _, d := range got["data"].([]any) {
				ts := d.(map[string]any)["created_at"].(string)
				if prev != "" && ((order == "created_at" && ts < prev) || (order == "-created_at" && ts > prev)) {
					t.Fatalf("order %s broken: %s after %s", order, ts, prev)
				}
				prev = ts
			}
		})
	}
}

func TestCardActivityCursorAndParams(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	insertActivities(t, e, e.Project.ProjectID, s.card, 30, time.Now().UTC().Add(-time.Minute))
	path := s.cardPath() + "/activities"
	first := mustOK(t, e, http.MethodGet, path+"?limit=5", nil, s.h)
	if n := len(first["data"].([]any)); n != 5 {
		t.Fatalf("limit 5 gave %d", n)
	}
	next := first["cursor"].(map[string]any)["next"].(string)
	if !strings.HasPrefix(next, "lcrsacrd_") {
		t.Errorf("cursor %q", next)
	}
	if def := mustOK(t, e, http.MethodGet, path, nil, s.h); len(def["data"].([]any)) != 10 {
		t.Errorf("default limit gave %d", len(def["data"].([]any)))
	}
	tampered := []byte(next)
	i := len("lcrsacrd_") + 3
	if tampered[i] == 'a' {
		tampered[i] = 'b'
	} else {
		tampered[i] = 'a'
	}
	for name, q := range map[string]string{
		"tampered":     "cursor=" + url.QueryEscape(string(tampered)),
		"garbage":      "cursor=abc",
		"empty":        "cursor=",
		"other order":  "order=created_at&cursor=" + url.QueryEscape(next),
		"other filter": "filters[type][conditions][$is]=vl.card.created&cursor=" + url.QueryEscape(next),
	} {
		body := wantErrorKey(t, e.Do(http.MethodGet, path+"?"+q, nil, s.h), 400, "invalid_or_expired_cursor")
		if body["message"] != "Invalid or expired cursor" {
			t.Errorf("%s: %v", name, body)
		}
	}
	// The cursor of one card does not continue another list.
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/rewards/lrew_00/activities?cursor="+url.QueryEscape(next), nil, s.h), 400, "invalid_or_expired_cursor")
	if r := e.Do(http.MethodGet, path+"?limit=5&cursor="+url.QueryEscape(next), nil, s.h); r.Status != 200 {
		t.Fatalf("valid cursor: %d %s", r.Status, r.Body)
	}
	// Another server process on the same database continues the list (the
	// signing key lives in the database).
	other := e.AnotherServer()
	r := e.DoAt(other.URL, http.MethodGet, path+"?limit=5&cursor="+url.QueryEscape(next), nil, s.h)
	if r.Status != 200 {
		t.Fatalf("cursor on another server: %d %s", r.Status, r.Body)
	}
	if a, b := r.JSON(t)["data"].([]any), mustOK(t, e, http.MethodGet, path+"?limit=5&cursor="+url.QueryEscape(next), nil, s.h)["data"].([]any); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("servers disagree on the next page")
	}
	for q, param := range map[string]string{
		"limit=0":               "limit",
		"limit=101":             "limit",
		"limit=ten":             "limit",
		"order=name":            "order",
		"filters[junction]=XOR": "filters[junction]",
		"filters[type][conditions][$is]=vl.card.burnt":              "filters[type][conditions][$is]",
		"filters[type][conditions][$in]=vl.card.created,nope":       "filters[type][conditions][$in]",
		"filters[created_at][conditions][$before]=yesterday":        "filters[created_at][conditions][$before]",
		"filters[id][conditions][$in]=" + strings.Repeat("x,", 101): "filters[id][conditions][$in]",
		"filters[code][conditions][$is]=x":                          "filters[code]",
		"filters[id][conditions][$like]=x":                          "filters[id][conditions][$like]",
	} {
		body := wantErrorKey(t, e.Do(http.MethodGet, path+"?"+q, nil, s.h), 400, "invalid_query_params")
		if d, _ := body["details"].(string); !strings.Contains(d, param) {
			t.Errorf("%s: details %q do not name %s", q, d, param)
		}
	}
}

func TestCardActivityFilters(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	insertActivities(t, e, e.Project.ProjectID, s.card, 50, base)
	path := s.cardPath() + "/activities"
	list := func(q string) []map[string]any {
		t.Helper()
		var out []map[string]any
		for _, id := range pageAll(t, e, s.h, path, mustQuery(t, q+"&limit=7"), nil) {
			out = append(out, map[string]any{"id": id})
		}
		return out
	}
	all := mustOK(t, e, http.MethodGet, path+"?limit=100", nil, s.h)["data"].([]any)
	byID := map[string]map[string]any{}
	for _, d := range all {
		a := d.(map[string]any)
		byID[a["id"].(string)] = a
	}
	count := func(pred func(a map[string]any) bool) int {
		n := 0
		for _, a := range byID {
			if pred(a) {
				n++
			}
		}
		return n
	}
	cut := base.Add(8 * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
	some := []string{}
	for id := range byID {
		if len(some) < 4 {
			some = append(some, id)
		}
	}
	in := func(id string) bool {
		for _, s := range some {
			if s == id {
				return true
			}
		}
		return false
	}
	isType := func(a map[string]any, ts ...string) bool {
		for _, t := range ts {
			if a["type"] == t {
				return true
			}
		}
		return false
	}
	cases := []struct {
		q    string
		want int
	}{
		{"filters[type][conditions][$is]=vl.card.unassigned", count(func(a map[string]any) bool { return isType(a, "vl.card.unassigned") })},
		{"filters[type][conditions][$in]=vl.card.unassigned&filters[type][conditions][$in]=vl.card.code_generation.failed",
			count(func(a map[string]any) bool { return isType(a, "vl.card.unassigned", "vl.card.code_generation.failed") })},
		{"filters[type][conditions][$in][]=vl.card.unassigned", count(func(a map[string]any) bool { return isType(a, "vl.card.unassigned") })},
		{"filters[created_at][conditions][$before]=" + cut, count(func(a map[string]any) bool { return a["created_at"].(string) < cut })},
		{"filters[created_at][conditions][$after]=" + cut, count(func(a map[string]any) bool { return a["created_at"].(string) > cut })},
		{"filters[id][conditions][$in]=" + strings.Join(some, ","), len(some)},
		{"filters[id][conditions][$is]=" + some[0], 1},
		// AND (the default) and OR of conditions on different fields.
		{"filters[junction]=AND&filters[type][conditions][$is]=vl.card.assigned&filters[created_at][conditions][$before]=" + cut,
			count(func(a map[string]any) bool { return isType(a, "vl.card.assigned") && a["created_at"].(string) < cut })},
		{"filters[type][conditions][$is]=vl.card.assigned&filters[id][conditions][$in]=" + strings.Join(some, ","),
			count(func(a map[string]any) bool { return isType(a, "vl.card.assigned") && in(a["id"].(string)) })},
		{"filters[junction]=OR&filters[type][conditions][$is]=vl.card.assigned&filters[id][conditions][$in]=" + strings.Join(some, ","),
			count(func(a map[string]any) bool { return isType(a, "vl.card.assigned") || in(a["id"].(string)) })},
		{"filters[junction]=or&filters[type][conditions][$is]=vl.card.unassigned&filters[created_at][conditions][$after]=" + cut,
			count(func(a map[string]any) bool { return isType(a, "vl.card.unassigned") || a["created_at"].(string) > cut })},
	}
	for _, c := range cases {
		if got := len(list(c.q)); got != c.want {
			t.Errorf("%s: %d activities, want %d", c.q, got, c.want)
		}
	}
	if len(byID) != 53 {
		t.Fatalf("setup: %d activities", len(byID))
	}
}

func mustQuery(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
