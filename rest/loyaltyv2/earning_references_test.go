package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestEarningRuleTriggerReferencesMustExist: an earning rule's trigger
// names a custom event schema or a segment of the caller's project. A
// missing one — or another project's, or a metadata schema that is not an
// event's — is 404 not_found with its resource_type, on create and on an
// update that sets the trigger, over REST and GraphQL, and nothing is
// stored; existing ones are accepted.
func TestEarningRuleTriggerReferencesMustExist(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	schema := resttest.DefineEvent(t, e, app, "purchase", nil)["id"].(string)
	segment := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Chosen", "type": "static", "customers": []any{s.Cust}}, app)["id"].(string)
	customerSchema := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/metadata-schemas",
		map[string]any{"related_object": "customer", "name": "profile", "properties": map[string]any{}}, app), http.StatusOK)["id"].(string)
	other := resttest.App(e.NewProject("other"))
	otherSchema := resttest.DefineEvent(t, e, other, "purchase", nil)["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "x"}, other)
	otherSegment := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Theirs", "type": "static", "customers": []any{"x"}}, other)["id"].(string)

	byEvent := func(id string) map[string]any {
		return map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": id}}
	}
	bySegment := func(id string) map[string]any {
		return map[string]any{"event": "customer.segment.entered", "segment": map[string]any{"id": id}}
	}
	rule := func(trigger map[string]any) map[string]any {
		b := resttest.EarningRuleBody(s.CardDef, "ACTIVE")
		b["trigger"] = trigger
		return b
	}
	refused := []struct {
		trigger      map[string]any
		id, resource string
	}{
		{byEvent("ms_00000000000000000000000000"), "ms_00000000000000000000000000", "custom_event_schema"},
		{byEvent(otherSchema), otherSchema, "custom_event_schema"},
		{byEvent(customerSchema), customerSchema, "custom_event_schema"},
		{bySegment("seg_00000000000000000000000000"), "seg_00000000000000000000000000", "segment"},
		{bySegment(otherSegment), otherSegment, "segment"},
	}
	for _, c := range refused {
		body := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/earning-rules", rule(c.trigger), s.H), http.StatusNotFound, "not_found")
		if body["resource_id"] != c.id || body["resource_type"] != c.resource {
			t.Errorf("create with %v: %v", c.trigger, body)
		}
	}
	if n := e.DB.Client.EarningRule.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Fatalf("%d earning rules stored after refused creates", n)
	}

	// Existing references are accepted.
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule(byEvent(schema)), s.H)
	id := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule(bySegment(segment)), s.H)["id"].(string)

	// An update that sets the trigger is checked the same way.
	path := "/v2/loyalties/earning-rules/" + id
	for _, c := range refused {
		body := resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"trigger": c.trigger}, s.H), http.StatusNotFound, "not_found")
		if body["resource_id"] != c.id || body["resource_type"] != c.resource {
			t.Errorf("update with %v: %v", c.trigger, body)
		}
	}
	if tr := resttest.MustOK(t, e, http.MethodGet, path, nil, s.H)["trigger"].(map[string]any); tr["segment"].(map[string]any)["id"] != segment {
		t.Errorf("refused updates changed the trigger: %v", tr)
	}
	if tr := resttest.MustOK(t, e, http.MethodPut, path, map[string]any{"trigger": byEvent(schema)}, s.H)["trigger"].(map[string]any); tr["custom_event"].(map[string]any)["schema_id"] != schema {
		t.Errorf("updated trigger %v", tr)
	}

	// GraphQL refuses the same way (the check is in the use case).
	r := e.GraphQL(app, `mutation($t: EarningTrigger, $cd: String!) { createEarningRule(input: {name: "gql", trigger: $t,
		earnings: [{effects: [{points: {value: 1, card_definition_id: $cd}}]}]}) { id } }`,
		map[string]any{"t": bySegment(otherSegment), "cd": s.CardDef})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "not_found" || r.Errors[0].Extensions["code"] != float64(404) {
		t.Errorf("graphql: %v %v", r.Data, r.Errors)
	}
}
