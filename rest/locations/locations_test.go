package locations_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestLocations(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("Other"))
	create := `mutation($in: LocationInput!) { createLocation(input: $in) { id name shape } }`
	circle := map[string]any{"type": "circle", "format": "distance",
		"distance": map[string]any{"center": "geo:40.79,-74.15", "radius": "15"}}
	r := e.GraphQL(app, create, map[string]any{"in": map[string]any{"name": "NYC", "shape": circle}})
	if len(r.Errors) > 0 {
		t.Fatalf("create: %+v", r.Errors)
	}
	id := r.Data["createLocation"].(map[string]any)["id"].(string)
	for _, bad := range []map[string]any{
		{"type": "circle", "format": "distance", "distance": map[string]any{"center": "geo:200,0", "radius": "1"}},
		{"type": "square"},
		{"type": "polygon", "format": "geojson", "geojson": map[string]any{"type": "Polygon"}},
	} {
		r := e.GraphQL(app, create, map[string]any{"in": map[string]any{"name": "bad", "shape": bad}})
		if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" {
			t.Fatalf("bad shape %v: %+v", bad, r)
		}
	}
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/locations/"+id, nil, app), http.StatusOK)
	if got["object"] != "location" || got["name"] != "NYC" || got["shape"].(map[string]any)["type"] != "circle" {
		t.Fatalf("get: %v", got)
	}
	l := resttest.Must(t, e.Do(http.MethodGet, "/v1/locations?filters[name][conditions][$is]=NYC", nil, app), http.StatusOK)
	if l["total"] != float64(1) || len(l["data"].([]any)) != 1 {
		t.Fatalf("list: %v", l)
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/locations", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Fatalf("other project's list: %v", l)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/locations/"+id, nil, other), "location", id)
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/locations?order=name", nil, app), http.StatusBadRequest, "invalid_query_params")
}
