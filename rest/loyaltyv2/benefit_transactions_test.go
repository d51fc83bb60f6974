package loyaltyv2_test

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
	s := resttest.NewLoyaltySetup(t, e)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	benefit := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/benefits", map[string]any{"name": "Bonus", "type": "POINTS", "status": "ACTIVE",
		"points": map[string]any{"value": 7, "card_definition_id": s.CardDef}}, s.H)["id"].(string)
	trigger := map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}}
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit bonus", "status": "ACTIVE",
		"trigger": trigger, "earnings": []any{map[string]any{"effects": []any{map[string]any{"benefit": map[string]any{"id": benefit}}}}}}, s.H)["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit points", "status": "ACTIVE", "trigger": trigger,
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 1, "card_definition_id": s.CardDef}}}}}}, s.H)
	for range 3 {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	if b := v2CardBalance(t, e, s); b != 24 {
		t.Fatalf("balance %v, want 3 × (7 + 1)", b)
	}
	path := "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member + "/benefits/transactions"
	first := resttest.MustOK(t, e, http.MethodGet, path+"?limit=2", nil, s.H)
	data := first["data"].([]any)
	if len(data) != 2 || first["cursor"] == nil {
		t.Fatalf("first page %s", resttest.MustJSON(first))
	}
	tx := data[0].(map[string]any)
	if tx["benefit_id"] != benefit || tx["earning_rule_id"] != rule || tx["type"] != "FULFILLMENT" ||
		tx["details"].(map[string]any)["result"].(map[string]any)["points"] != 7.0 {
		t.Errorf("benefit transaction %s", resttest.MustJSON(tx))
	}
	next := resttest.MustOK(t, e, http.MethodGet, path+"?limit=2&cursor="+first["cursor"].(map[string]any)["next"].(string), nil, s.H)
	if n := len(next["data"].([]any)); n != 1 || next["cursor"] != nil {
		t.Errorf("second page %s, want the third fulfilment and no cursor", resttest.MustJSON(next))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/lmbr_unknown/benefits/transactions", nil, s.H),
		http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, path, nil, resttest.V2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, path+"?limit=0", nil, s.H), http.StatusBadRequest, "invalid_query_params")
}
