package segments_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestListSegments(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DefineEvent(t, e, app, "purchase", nil)
	var ids []string // oldest first
	var created []string
	for i, name := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		body := map[string]any{"name": name, "type": "static"}
		if i%2 == 1 {
			body = map[string]any{"name": name, "type": "auto-update",
				"filter": map[string]any{"events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": []any{"0"}}}}}
		}
		seg := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/segments", body, app), http.StatusOK)
		ids = append(ids, seg["id"].(string))
		created = append(created, seg["created_at"].(string))
		time.Sleep(3 * time.Millisecond)
	}
	list := func(query string) (names []string, total float64) {
		t.Helper()
		body := resttest.Must(t, e.Do(http.MethodGet, "/v1/segments"+query, nil, app), http.StatusOK)
		if body["object"] != "list" || body["data_ref"] != "data" {
			t.Fatalf("envelope: %v", body)
		}
		for _, s := range body["data"].([]any) {
			seg := s.(map[string]any)
			if seg["object"] != "segment" {
				t.Fatalf("item: %v", seg)
			}
			names = append(names, seg["name"].(string))
		}
		return names, body["total"].(float64)
	}
	check := func(query string, wantTotal int, want ...string) {
		t.Helper()
		names, total := list(query)
		if int(total) != wantTotal || len(names) != len(want) {
			t.Fatalf("%s: total %v, names %v; want %d %v", query, total, names, wantTotal, want)
		}
		for i := range want {
			if names[i] != want[i] {
				t.Fatalf("%s: names %v, want %v", query, names, want)
			}
		}
	}
	check("", 5, "epsilon", "delta", "gamma", "beta", "alpha")
	check("?limit=2", 5, "epsilon", "delta")
	check("?limit=2&order=created_at", 5, "alpha", "beta")
	check("?order=-created_at&limit=1", 5, "epsilon")
	check("?ids="+ids[0]+"&ids="+ids[2], 2, "gamma", "alpha")
	check("?ids[]="+ids[1]+"&ids[]="+ids[3]+"&order=created_at", 2, "beta", "delta")
	check("?filters[name][conditions][$is]=beta", 1, "beta")
	check("?filters[name][conditions][$in][]=beta&filters[name][conditions][$in][]=delta", 2, "delta", "beta")
	check("?filters[name][conditions][$in]=beta&filters[name][conditions][$in]=gamma&limit=1", 2, "gamma")
	check("?filters[type][conditions][$is]=static", 3, "epsilon", "gamma", "alpha")
	check("?filters[type][conditions][$is]=auto-update&filters[name][conditions][$is]=beta", 1, "beta")
	check("?filters[junction]=or&filters[type][conditions][$is]=auto-update&filters[name][conditions][$is]=alpha", 3, "delta", "beta", "alpha")
	check("?filters[name][conditions][$starts_with]=e", 1, "epsilon")
	check("?filters[created_at][conditions][$after]="+url.QueryEscape(created[2]), 2, "epsilon", "delta")
	check("?filters[created_at][conditions][$before]="+url.QueryEscape(created[1])+"&filters[type][conditions][$is]=static", 1, "alpha")
	check("?filters[id][conditions][$is]="+ids[4], 1, "epsilon")
	check("?filters[name][conditions][$is]=nothing", 0)

	bad := map[string]string{
		"?limit=0":                                "limit",
		"?limit=101":                              "limit",
		"?limit=ten":                              "limit",
		"?order=name":                             "order",
		"?filters[color][conditions][$is]=red":    "filters[color]",
		"?filters[name][conditions][$near]=x":     "filters[name][conditions][$near]",
		"?filters[type][conditions][$contains]=a": "filters[type][conditions][$contains]",
		"?filters[created_at][conditions][$after]=yesterday": "filters[created_at][conditions][$after]",
		"?filters[junction]=xor":                             "filters[junction]",
		"?filters[name]=x":                                   "filters[name]",
	}
	for q, want := range bad {
		resttest.WantError(t, e.Do(http.MethodGet, "/v1/segments"+q, nil, app), http.StatusBadRequest, "invalid_query_params", want)
	}
}

// TestListSegmentsAlsoInSegmentsArray: the list carries the segments in
// data (data_ref) and the same items in segments, the array the reference
// schema names; both are empty arrays when nothing matches.
func TestListSegmentsAlsoInSegmentsArray(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	empty := resttest.Must(t, e.Do(http.MethodGet, "/v1/segments", nil, app), http.StatusOK)
	if resttest.MustJSON(empty) != `{"data":[],"data_ref":"data","object":"list","segments":[],"total":0}` {
		t.Fatalf("empty list = %s", resttest.MustJSON(empty))
	}
	for _, name := range []string{"first", "second"} {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": name, "type": "static"}, app), http.StatusOK)
		time.Sleep(3 * time.Millisecond)
	}
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/segments?limit=1", nil, app), http.StatusOK)
	data, segs := got["data"].([]any), got["segments"].([]any)
	if len(data) != 1 || got["total"] != 2.0 || resttest.MustJSON(data) != resttest.MustJSON(segs) || data[0].(map[string]any)["name"] != "second" {
		t.Errorf("list = %s", resttest.MustJSON(got))
	}
}
