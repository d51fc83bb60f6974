package loyaltyv2_test

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

	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/rest/resttest"
)

// The card activity list's keyset paging: concurrent inserts, the cursor
// and its parameters, the filters.

func TestCardActivityPagingWithConcurrentInserts(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	insertActivities(t, e, e.Project.ProjectID, s.Card, 300, base)
	all := map[string]bool{}
	for _, id := range pageAll(t, e, s.H, s.CardPath()+"/activities", url.Values{"limit": {"100"}}, nil) {
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
					if _, err := e.DB.Client.CardActivity.Create().SetCardID(s.Card).SetType("vl.card.assigned").
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
			ids := pageAll(t, e, s.H, s.CardPath()+"/activities", url.Values{"limit": {"17"}, "order": {order}}, nextPage)
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
			got := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/activities?limit=100&order="+order, nil, s.H)
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
	s := resttest.NewLoyaltySetup(t, e)
	insertActivities(t, e, e.Project.ProjectID, s.Card, 30, time.Now().UTC().Add(-time.Minute))
	path := s.CardPath() + "/activities"
	first := resttest.MustOK(t, e, http.MethodGet, path+"?limit=5", nil, s.H)
	if n := len(first["data"].([]any)); n != 5 {
		t.Fatalf("limit 5 gave %d", n)
	}
	next := first["cursor"].(map[string]any)["next"].(string)
	if !strings.HasPrefix(next, "lcrsacrd_") {
		t.Errorf("cursor %q", next)
	}
	if def := resttest.MustOK(t, e, http.MethodGet, path, nil, s.H); len(def["data"].([]any)) != 10 {
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
		body := resttest.WantErrorKey(t, e.Do(http.MethodGet, path+"?"+q, nil, s.H), 400, "invalid_or_expired_cursor")
		if body["message"] != "Invalid or expired cursor" {
			t.Errorf("%s: %v", name, body)
		}
	}
	// The cursor of one card does not continue another list.
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/rewards/lrew_00/activities?cursor="+url.QueryEscape(next), nil, s.H), 400, "invalid_or_expired_cursor")
	if r := e.Do(http.MethodGet, path+"?limit=5&cursor="+url.QueryEscape(next), nil, s.H); r.Status != 200 {
		t.Fatalf("valid cursor: %d %s", r.Status, r.Body)
	}
	// Another server process on the same database continues the list (the
	// signing key lives in the database).
	other := e.AnotherServer()
	r := e.DoAt(other.URL, http.MethodGet, path+"?limit=5&cursor="+url.QueryEscape(next), nil, s.H)
	if r.Status != 200 {
		t.Fatalf("cursor on another server: %d %s", r.Status, r.Body)
	}
	if a, b := r.JSON(t)["data"].([]any), resttest.MustOK(t, e, http.MethodGet, path+"?limit=5&cursor="+url.QueryEscape(next), nil, s.H)["data"].([]any); fmt.Sprint(a) != fmt.Sprint(b) {
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
		body := resttest.WantErrorKey(t, e.Do(http.MethodGet, path+"?"+q, nil, s.H), 400, "invalid_query_params")
		if d, _ := body["details"].(string); !strings.Contains(d, param) {
			t.Errorf("%s: details %q do not name %s", q, d, param)
		}
	}
}

func TestCardActivityFilters(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	insertActivities(t, e, e.Project.ProjectID, s.Card, 50, base)
	path := s.CardPath() + "/activities"
	list := func(q string) []map[string]any {
		t.Helper()
		var out []map[string]any
		for _, id := range pageAll(t, e, s.H, path, mustQuery(t, q+"&limit=7"), nil) {
			out = append(out, map[string]any{"id": id})
		}
		return out
	}
	all := resttest.MustOK(t, e, http.MethodGet, path+"?limit=100", nil, s.H)["data"].([]any)
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
