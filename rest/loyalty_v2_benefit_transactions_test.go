package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2BenefitTransactions: an event that fires a rule giving a POINTS
// benefit is listed as the member's FULFILLMENT of that benefit (a plain
// points rule is not); pages follow the cursor; an unknown or another
// project's member is 404.
func TestV2BenefitTransactions(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := newLoyaltySetup(t, e)
	visit := defineEvent(t, e, app, "visit", nil)
	benefit := mustOK(t, e, http.MethodPost, "/v2/loyalties/benefits", map[string]any{"name": "Bonus", "type": "POINTS", "status": "ACTIVE",
		"points": map[string]any{"value": 7, "card_definition_id": s.cardDef}}, s.h)["id"].(string)
	trigger := map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}}
	rule := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit bonus", "status": "ACTIVE",
		"trigger": trigger, "earnings": []any{map[string]any{"effects": []any{map[string]any{"benefit": map[string]any{"id": benefit}}}}}}, s.h)["id"].(string)
	mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit points", "status": "ACTIVE", "trigger": trigger,
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 1, "card_definition_id": s.cardDef}}}}}}, s.h)
	for range 3 {
		must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	if b := v2CardBalance(t, e, s); b != 24 {
		t.Fatalf("balance %v, want 3 × (7 + 1)", b)
	}
	path := "/v2/loyalties/programs/" + s.program + "/members/" + s.member + "/benefits/transactions"
	first := mustOK(t, e, http.MethodGet, path+"?limit=2", nil, s.h)
	data := first["data"].([]any)
	if len(data) != 2 || first["cursor"] == nil {
		t.Fatalf("first page %s", mustJSON(first))
	}
	tx := data[0].(map[string]any)
	if tx["benefit_id"] != benefit || tx["earning_rule_id"] != rule || tx["type"] != "FULFILLMENT" ||
		tx["details"].(map[string]any)["result"].(map[string]any)["points"] != 7.0 {
		t.Errorf("benefit transaction %s", mustJSON(tx))
	}
	next := mustOK(t, e, http.MethodGet, path+"?limit=2&cursor="+first["cursor"].(map[string]any)["next"].(string), nil, s.h)
	if n := len(next["data"].([]any)); n != 1 || next["cursor"] != nil {
		t.Errorf("second page %s, want the third fulfilment and no cursor", mustJSON(next))
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/"+s.program+"/members/lmbr_unknown/benefits/transactions", nil, s.h),
		http.StatusNotFound, "not_found")
	wantErrorKey(t, e.Do(http.MethodGet, path, nil, v2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
	wantErrorKey(t, e.Do(http.MethodGet, path+"?limit=0", nil, s.h), http.StatusBadRequest, "invalid_query_params")
}
