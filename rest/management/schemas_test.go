package management_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestManagementMetadataSchemas(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	base := resttest.ProjectPath(pid, "/metadata-schemas")
	created := resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"related_object": "customer",
		"properties": map[string]any{"tier": map[string]any{"type": "string", "optional": true}}}, mk), http.StatusOK)
	id := created["id"].(string)
	if created["related_object"] != "customer" || created["object"] != "metadata_schema" || created["allow_defined_only"] != false ||
		resttest.MustJSON(created["properties"]) != `{"tier":{"array":false,"optional":true,"type":"string"}}` {
		t.Errorf("created: %v", created)
	}
	dup := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"related_object": "customer", "properties": map[string]any{}}, mk),
		http.StatusConflict, "duplicate_found")
	if dup["resource_id"] != "customer" {
		t.Errorf("duplicate: %v", dup)
	}
	for name, body := range map[string]map[string]any{
		"no related_object":  {"properties": map[string]any{}},
		"event":              {"related_object": "event", "properties": map[string]any{}},
		"bad type":           {"related_object": "order", "properties": map[string]any{"x": map[string]any{"type": "colour"}}},
		"allow_defined_only": {"related_object": "order", "properties": map[string]any{}, "allow_defined_only": true},
	} {
		if r := e.DoJSON(http.MethodPost, base, body, mk); r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	// Update: add, replace, remove; a type cannot change.
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"properties": map[string]any{
		"points": map[string]any{"type": "number"}, "tier": map[string]any{"type": "string", "optional": false},
	}}, mk), http.StatusOK)
	if resttest.MustJSON(upd["properties"]) != `{"points":{"array":false,"optional":false,"type":"number"},"tier":{"array":false,"optional":false,"type":"string"}}` || upd["updated_at"] == nil {
		t.Errorf("updated: %v", upd)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"properties": map[string]any{
		"points": map[string]any{"type": "string"}}}, mk), http.StatusBadRequest, "invalid_payload")
	upd = resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"properties": map[string]any{
		"points": map[string]any{"deleted": true}}}, mk), http.StatusOK)
	if resttest.MustJSON(upd["properties"]) != `{"tier":{"array":false,"optional":false,"type":"string"}}` {
		t.Errorf("after deleting a definition: %v", upd["properties"])
	}
	// The list holds metadata schemas, not custom event schemas.
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(pid, "/custom-event-schemas"),
		map[string]any{"name": "signed_up", "schema": map[string]any{"properties": map[string]any{}}}, mk), http.StatusOK)
	if l := resttest.Must(t, e.Do(http.MethodGet, base, nil, mk), http.StatusOK); l["total"] != float64(1) || l["data"].([]any)[0].(map[string]any)["id"] != id {
		t.Errorf("list: %v", l)
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusOK); resttest.MustJSON(got) != resttest.MustJSON(upd) {
		t.Errorf("get = %v", got)
	}
	// The schema is the one /v1/metadata-schemas shows.
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/metadata-schemas/"+id, nil, resttest.App(e.Project)), http.StatusOK); got["related_object"] != "customer" {
		t.Errorf("v1 view: %v", got)
	}
	// Tenancy.
	other := e.NewProject("Other").ProjectID
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(other, "/metadata-schemas/", id), nil, mk), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(other, "/metadata-schemas/", id), nil, mk), http.StatusNotFound, "not_found")
	if r := e.Do(http.MethodDelete, base+"/"+id, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusNotFound, "not_found")
	// The related_object is free again.
	resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"related_object": "customer", "properties": map[string]any{}}, mk), http.StatusOK)
}

func TestManagementCustomEventSchemas(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	pid := e.Project.ProjectID
	base := resttest.ProjectPath(pid, "/custom-event-schemas")
	created := resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "review",
		"schema": map[string]any{"properties": map[string]any{"stars": map[string]any{"type": "number"}}}}, mk), http.StatusOK)
	id := created["id"].(string)
	if created["name"] != "review" || created["object"] != "custom-event-schema" ||
		resttest.MustJSON(created["schema"]) != `{"properties":{"stars":{"array":false,"optional":false,"type":"number"}}}` {
		t.Errorf("created: %v", created)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "review", "schema": map[string]any{"properties": map[string]any{}}}, mk),
		http.StatusConflict, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "nameless"}, mk), http.StatusBadRequest, "invalid_payload")
	// The event is accepted by POST /v1/events, with its metadata checked.
	event := func(md map[string]any) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "review",
			"customer": map[string]any{"source_id": "alice"}, "metadata": md}, app)
	}
	resttest.Must(t, event(map[string]any{"stars": 5}), http.StatusOK)
	// A property's type may change; deleted: true removes one.
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"schema": map[string]any{"properties": map[string]any{
		"stars": map[string]any{"type": "string"}, "text": map[string]any{"type": "string", "optional": true}}}}, mk), http.StatusOK)
	if resttest.MustJSON(upd["schema"]) != `{"properties":{"stars":{"array":false,"optional":false,"type":"string"},"text":{"array":false,"optional":true,"type":"string"}}}` {
		t.Errorf("updated: %v", upd["schema"])
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"name": "renamed"}, mk), http.StatusBadRequest, "invalid_payload")
	if l := resttest.Must(t, e.Do(http.MethodGet, base, nil, mk), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("list: %v", l)
	}
	other := e.NewProject("Other").ProjectID
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(other, "/custom-event-schemas/", id), nil, mk), http.StatusNotFound, "not_found")
	// A metadata schema's id is no custom event schema.
	ms := resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(pid, "/metadata-schemas"), map[string]any{"related_object": "order", "properties": map[string]any{}}, mk), http.StatusOK)
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"/"+ms["id"].(string), nil, mk), http.StatusNotFound, "not_found")
	// Deleted: the event is no longer accepted.
	if r := e.Do(http.MethodDelete, base+"/"+id, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := event(nil); r.Status == http.StatusOK {
		t.Errorf("event after its schema was deleted: %d %s", r.Status, r.Body)
	}
}

func TestSchemasThroughTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	vars := map[string]any{"p": pid}
	ms := resttest.GQLObject(t, e, mk, "createManagementMetadataSchema", `mutation($p: ID!) {
		createManagementMetadataSchema(projectID: $p, input: {relatedObject: "voucher", properties: {color: {type: "string"}}}) { id relatedObject properties } }`, vars)
	resttest.GQLError(t, e, mk, 409, "duplicate_found", `mutation($p: ID!) {
		createManagementMetadataSchema(projectID: $p, input: {relatedObject: "voucher", properties: {}}) { id } }`, vars)
	vars["id"] = ms["id"]
	upd := resttest.GQLObject(t, e, mk, "updateManagementMetadataSchema", `mutation($p: ID!, $id: ID!) {
		updateManagementMetadataSchema(projectID: $p, id: $id, input: {properties: {size: {type: "number", optional: true}}}) { properties } }`, vars)
	if resttest.MustJSON(upd["properties"]) != `{"color":{"array":false,"optional":false,"type":"string"},"size":{"array":false,"optional":true,"type":"number"}}` {
		t.Errorf("updateManagementMetadataSchema = %v", upd)
	}
	resttest.GQLError(t, e, mk, 400, "invalid_payload", `mutation($p: ID!, $id: ID!) {
		updateManagementMetadataSchema(projectID: $p, id: $id, input: {properties: {size: {type: "string"}}}) { id } }`, vars)
	if l := resttest.GQLData(t, e, mk, "managementMetadataSchemas", `query($p: ID!) { managementMetadataSchemas(projectID: $p) { id } }`, map[string]any{"p": pid}); len(l.([]any)) != 1 {
		t.Errorf("managementMetadataSchemas = %v", l)
	}
	ev := resttest.GQLObject(t, e, mk, "createManagementCustomEventSchema", `mutation($p: ID!) {
		createManagementCustomEventSchema(projectID: $p, input: {name: "newsletter", schema: {properties: {}}}) { id name relatedObject } }`, map[string]any{"p": pid})
	if ev["name"] != "newsletter" || ev["relatedObject"] != "event" {
		t.Errorf("createManagementCustomEventSchema = %v", ev)
	}
	// REST lists what the graph created.
	if l := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(pid, "/custom-event-schemas"), nil, mk), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("REST list: %v", l)
	}
	evVars := map[string]any{"p": pid, "id": ev["id"]}
	resttest.GQLObject(t, e, mk, "updateManagementCustomEventSchema", `mutation($p: ID!, $id: ID!) {
		updateManagementCustomEventSchema(projectID: $p, id: $id, input: {schema: {properties: {source: {type: "string"}}}}) { id } }`, evVars)
	got := resttest.GQLObject(t, e, mk, "managementCustomEventSchema", `query($p: ID!, $id: ID!) { managementCustomEventSchema(projectID: $p, id: $id) { properties } }`, evVars)
	if resttest.MustJSON(got["properties"]) != `{"source":{"array":false,"optional":false,"type":"string"}}` {
		t.Errorf("managementCustomEventSchema = %v", got)
	}
	other := e.NewProject("Other").ProjectID
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $id: ID!) { managementCustomEventSchema(projectID: $p, id: $id) { id } }`,
		map[string]any{"p": other, "id": ev["id"]})
	resttest.GQLData(t, e, mk, "deleteManagementCustomEventSchema", `mutation($p: ID!, $id: ID!) { deleteManagementCustomEventSchema(projectID: $p, id: $id) }`, evVars)
	resttest.GQLData(t, e, mk, "deleteManagementMetadataSchema", `mutation($p: ID!, $id: ID!) { deleteManagementMetadataSchema(projectID: $p, id: $id) }`, vars)
	if l := resttest.GQLData(t, e, mk, "managementCustomEventSchemas", `query($p: ID!) { managementCustomEventSchemas(projectID: $p) { id } }`, map[string]any{"p": pid}); len(l.([]any)) != 0 {
		t.Errorf("after deletes: %v", l)
	}
}
