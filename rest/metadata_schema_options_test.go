package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestMetadataSchemaDefinitionOptions: the definition options the real
// service documents are stored and returned (REST and GraphQL); an unknown
// option, or one the property's type does not take, is a 400 rather than
// silently dropped.
func TestMetadataSchemaDefinitionOptions(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	base := projectPath(pid, "/metadata-schemas")
	props := map[string]any{
		"code":  map[string]any{"type": "string", "min_length": 2, "max_length": 8, "eq": []any{"AB", "ABCD"}},
		"pin":   map[string]any{"type": "string", "exact_length": 4, "optional": true},
		"score": map[string]any{"type": "number", "gte": 0, "lt": 10.5, "ne": []any{3}, "eq": []any{1, 2, 3, 4}},
		"tags":  map[string]any{"type": "string", "array": true, "deleted": false},
		"box":   map[string]any{"type": "object", "object_type": "parcel"},
		"gone":  map[string]any{"type": "string", "deleted": true}, // defines nothing
	}
	created := must(t, e.DoJSON(http.MethodPost, base, map[string]any{"related_object": "customer", "properties": props}, mk), http.StatusOK)
	const want = `{"box":{"array":false,"object_type":"parcel","optional":false,"type":"object"},` +
		`"code":{"array":false,"eq":["AB","ABCD"],"max_length":8,"min_length":2,"optional":false,"type":"string"},` +
		`"pin":{"array":false,"exact_length":4,"optional":true,"type":"string"},` +
		`"score":{"array":false,"eq":[1,2,3,4],"gte":0,"lt":10.5,"ne":[3],"optional":false,"type":"number"},` +
		`"tags":{"array":true,"optional":false,"type":"string"}}`
	if got := mustJSON(created["properties"]); got != want {
		t.Errorf("created properties\n got %s\nwant %s", got, want)
	}
	got := must(t, e.Do(http.MethodGet, base+"/"+created["id"].(string), nil, mk), http.StatusOK)
	if mustJSON(got["properties"]) != want {
		t.Errorf("read back: %s", mustJSON(got["properties"]))
	}

	for name, def := range map[string]map[string]any{
		"unknown option":          {"type": "string", "colour": "red"},
		"min_length of a number":  {"type": "number", "min_length": 1},
		"gte of a string":         {"type": "string", "gte": 1},
		"negative max_length":     {"type": "string", "max_length": -1},
		"min above max":           {"type": "string", "min_length": 5, "max_length": 2},
		"eq of the wrong type":    {"type": "number", "eq": []any{"one"}},
		"eq of a boolean":         {"type": "boolean", "eq": []any{true}},
		"object_type of a string": {"type": "string", "object_type": "parcel"},
		"array not a boolean":     {"type": "string", "array": "yes"},
	} {
		r := e.DoJSON(http.MethodPost, base, map[string]any{"related_object": "voucher", "properties": map[string]any{"p": def}}, mk)
		body := wantErrorKey(t, r, http.StatusBadRequest, "invalid_payload")
		if d, _ := body["details"].(string); !strings.Contains(d, ".properties.p") {
			t.Errorf("%s: details %q", name, d)
		}
	}
	// Updates check definitions the same way.
	wantErrorKey(t, e.DoJSON(http.MethodPut, base+"/"+created["id"].(string), map[string]any{"properties": map[string]any{
		"extra": map[string]any{"type": "string", "allowed_values": []any{"a"}}}}, mk), http.StatusBadRequest, "invalid_payload")

	// GraphQL: the same options and the same refusal.
	vars := map[string]any{"p": pid}
	ms := gqlObject(t, e, mk, "createManagementMetadataSchema", `mutation($p: ID!) {
		createManagementMetadataSchema(projectID: $p, input: {relatedObject: "voucher",
			properties: {n: {type: "number", lte: 5, eq: [1, 5]}}}) { properties } }`, vars)
	if mustJSON(ms["properties"]) != `{"n":{"array":false,"eq":[1,5],"lte":5,"optional":false,"type":"number"}}` {
		t.Errorf("GraphQL properties = %s", mustJSON(ms["properties"]))
	}
	gqlError(t, e, mk, 400, "invalid_payload", `mutation($p: ID!) {
		createManagementMetadataSchema(projectID: $p, input: {relatedObject: "order", properties: {n: {type: "number", max: 5}}}) { id } }`, vars)
}

// TestCustomEventMetadataConstraints: metadata of a custom event is checked
// against its schema's constraints (lengths, allowed and refused values,
// bounds, arrays) when the event is sent.
func TestCustomEventMetadataConstraints(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, projectPath(e.Project.ProjectID, "/custom-event-schemas"), map[string]any{"name": "review",
		"schema": map[string]any{"properties": map[string]any{
			"stars":   map[string]any{"type": "number", "gte": 1, "lte": 5, "ne": []any{3}},
			"comment": map[string]any{"type": "string", "max_length": 5, "optional": true},
			"lang":    map[string]any{"type": "string", "eq": []any{"en", "fr"}, "optional": true},
			"tags":    map[string]any{"type": "string", "array": true, "min_length": 2, "optional": true},
		}}}, mk), http.StatusOK)
	event := func(md map[string]any) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "review",
			"customer": map[string]any{"source_id": "alice"}, "metadata": md}, app)
	}
	must(t, event(map[string]any{"stars": 5, "comment": "great", "lang": "fr", "tags": []any{"ok", "fine"}}), http.StatusOK)
	for md, prop := range map[string]map[string]any{
		".metadata.stars":   {"stars": 0},
		".metadata.stars ":  {"stars": 3},
		".metadata.stars  ": {"stars": 5.5},
		".metadata.comment": {"stars": 5, "comment": "too long"},
		".metadata.lang":    {"stars": 5, "lang": "de"},
		".metadata.tags":    {"stars": 5, "tags": "ok"},
		".metadata.tags[1]": {"stars": 5, "tags": []any{"ok", "x"}},
	} {
		body := wantErrorKey(t, event(prop), http.StatusBadRequest, "invalid_payload")
		if d, _ := body["details"].(string); !strings.Contains(d, strings.TrimSpace(md)+" ") {
			t.Errorf("%v: details %q do not name %s", prop, d, strings.TrimSpace(md))
		}
	}
}
