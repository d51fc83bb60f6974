package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2ProgramReports: a reward purchase counts in today's spending row
// of the card definition and in the summary; an earning rule's awards are
// counted (and their points summed) per day and in total; a too long range, a missing date and the
// unsupported filters are 400; another project's program is 404.
func TestV2ProgramReports(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	rw := resttest.Purchasable(t, e, s, 10, 2)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 25}, s.H)
	resttest.Must(t, e.DoJSON(http.MethodPost, s.PurchasesPath(), map[string]any{"reward_id": rw}, s.H), http.StatusAccepted)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 2, "card_definition_id": s.CardDef}}}}}}, s.H)["id"].(string)
	for range 3 {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}

	today := time.Now().UTC()
	base := "/v2/loyalties/programs/" + s.Program + "/reports/"
	q := "?start_date=" + today.AddDate(0, 0, -1).Format(time.DateOnly) + "&end_date=" + today.Format(time.DateOnly) + "&resolution=day"
	spend := resttest.MustOK(t, e, http.MethodGet, base+"spending/daily"+q, nil, s.H)["data"].([]any)
	if len(spend) != 2 || spend[0].(map[string]any)["points"] != 0.0 {
		t.Fatalf("spending %s, want two days, none yesterday", resttest.MustJSON(spend))
	}
	if row := spend[1].(map[string]any); row["date"] != today.Format(time.DateOnly) || row["card_definition_id"] != s.CardDef ||
		row["success"] != 1.0 || row["points"] != 10.0 {
		t.Errorf("today's spending %s, want 1 purchase of 10", resttest.MustJSON(row))
	}
	sum := resttest.MustOK(t, e, http.MethodGet, base+"spending/summary", nil, s.H)["data"].([]any)
	if len(sum) != 1 || sum[0].(map[string]any)["points_on_rewards"] != 10.0 || sum[0].(map[string]any)["id"] != s.CardDef {
		t.Errorf("spending summary %s", resttest.MustJSON(sum))
	}
	rules := resttest.MustOK(t, e, http.MethodGet, base+"earning-rules/daily"+q, nil, s.H)["data"].([]any)
	if len(rules) != 1 || rules[0].(map[string]any)["earning_rule_id"] != rule || rules[0].(map[string]any)["success_count"] != 3.0 ||
		rules[0].(map[string]any)["date"] != today.Format(time.DateOnly) {
		t.Errorf("earning rules %s, want 3 awards today", resttest.MustJSON(rules))
	}
	if total := resttest.MustOK(t, e, http.MethodGet, base+"earning-rules/summary", nil, s.H)["data"].([]any); len(total) != 1 ||
		total[0].(map[string]any)["success_count"] != 3.0 {
		t.Errorf("earning rules summary %s", resttest.MustJSON(total))
	}
	earned := resttest.MustOK(t, e, http.MethodGet, base+"points-earnings/daily"+q, nil, s.H)["data"].([]any)
	if len(earned) != 1 || earned[0].(map[string]any)["points"] != 6.0 || earned[0].(map[string]any)["card_definition_id"] != s.CardDef {
		t.Errorf("points earnings %s, want 6 points today", resttest.MustJSON(earned))
	}
	if total := resttest.MustOK(t, e, http.MethodGet, base+"points-earnings/summary", nil, s.H)["data"].([]any); len(total) != 1 ||
		total[0].(map[string]any)["success_count"] != 3.0 {
		t.Errorf("points earnings summary %s", resttest.MustJSON(total))
	}
	long := "?start_date=" + today.AddDate(0, 0, -90).Format(time.DateOnly) + "&end_date=" + today.Format(time.DateOnly) + "&resolution=day"
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"spending/daily"+long, nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"earning-rules/daily", nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"spending/summary?filters[card_definition_id][conditions][$is]="+s.CardDef, nil, s.H),
		http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"earning-rules/summary", nil, resttest.V2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
}
