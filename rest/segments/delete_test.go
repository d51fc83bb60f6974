package segments_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestDeletingASegmentThatTriggersEarningRulesIsRefused: a segment an
// earning rule is triggered by (customer.segment.entered) cannot be
// deleted — 409 resource_in_use naming the rule, over REST and GraphQL,
// and the segment and its members stay — until the rule's trigger moves;
// then it can, as an unused segment always could.
func TestDeletingASegmentThatTriggersEarningRulesIsRefused(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	seg := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Chosen", "type": "static", "customers": []any{s.Cust}}, app)["id"].(string)
	unused := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Unused", "type": "static", "customers": []any{s.Cust}}, app)["id"].(string)
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "DRAFT",
		"trigger":  map[string]any{"event": "customer.segment.entered", "segment": map[string]any{"id": seg}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 5, "card_definition_id": s.CardDef}}}}}}, s.H)["id"].(string)

	body := resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v1/segments/"+seg, nil, app), http.StatusConflict, "resource_in_use")
	if d, _ := body["details"].(string); !strings.Contains(d, rule) || body["resource_id"] != seg || body["resource_type"] != "segment" {
		t.Errorf("refusal does not name the segment and the rule: %v", body)
	}
	r := e.GraphQL(app, `mutation($id: ID!) { deleteSegment(id: $id) }`, map[string]any{"id": seg})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "resource_in_use" {
		t.Errorf("GraphQL deleteSegment of a segment in use = %+v", r)
	}
	kept := resttest.MustOK(t, e, http.MethodGet, "/v1/segments/"+seg, nil, app)
	if kept["id"] != seg {
		t.Fatalf("the refused segment is gone: %v", kept)
	}
	if r := e.Do(http.MethodDelete, "/v1/segments/"+unused, nil, app); r.Status != http.StatusNoContent {
		t.Errorf("deleting an unused segment: %d %s", r.Status, r.Body)
	}

	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/earning-rules/"+rule,
		map[string]any{"trigger": map[string]any{"event": "customer.order.paid"}}, s.H)
	if r := e.Do(http.MethodDelete, "/v1/segments/"+seg, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete after the rule moved: %d %s", r.Status, r.Body)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v1/segments/"+seg, nil, app), http.StatusNotFound, "not_found")
}
