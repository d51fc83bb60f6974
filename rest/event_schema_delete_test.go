package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestDeletingAnEventSchemaInUseIsRefused: a custom event schema that an
// earning rule (active or draft) uses as its trigger cannot be deleted —
// 409 resource_in_use naming the rules, over REST and GraphQL — and can be
// once no rule uses it.
func TestDeletingAnEventSchemaInUseIsRefused(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	mk := e.NewManagementKey()
	s := newLoyaltySetup(t, e)
	schema := defineEvent(t, e, app, "purchase", nil)["id"].(string)
	rule := func(status string) map[string]any {
		return map[string]any{"name": "earn", "status": status,
			"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": schema}},
			"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 5, "card_definition_id": s.CardDef}}}}}}
	}
	active := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule("ACTIVE"), s.H)["id"].(string)
	draft := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule("DRAFT"), s.H)["id"].(string)
	path := projectPath(e.Project.ProjectID, "/custom-event-schemas/"+schema)

	body := wantErrorKey(t, e.Do(http.MethodDelete, path, nil, mk), http.StatusConflict, "resource_in_use")
	if d, _ := body["details"].(string); !strings.Contains(d, active) || !strings.Contains(d, draft) || body["resource_id"] != schema {
		t.Errorf("refusal does not name the schema and both rules: %v", body)
	}
	vars := map[string]any{"p": e.Project.ProjectID, "id": schema}
	gqlError(t, e, mk, http.StatusConflict, "resource_in_use",
		`mutation($p: ID!, $id: ID!) { deleteManagementCustomEventSchema(projectID: $p, id: $id) }`, vars)
	// The event still works: the schema is there.
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "purchase",
		"customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)

	// Once no rule uses the schema, it can be deleted.
	for _, id := range []string{active, draft} {
		mustOK(t, e, http.MethodPut, "/v2/loyalties/earning-rules/"+id,
			map[string]any{"trigger": map[string]any{"event": "customer.order.paid"}}, s.H)
	}
	if r := e.Do(http.MethodDelete, path, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete after the rules moved: %d %s", r.Status, r.Body)
	}
	wantErrorKey(t, e.Do(http.MethodDelete, path, nil, mk), http.StatusNotFound, "not_found")
}
