package rest_test

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
	s := newLoyaltySetup(t, e)
	rw := purchasable(t, e, s, 10, 2)
	mustOK(t, e, http.MethodPost, s.cardPath()+"/points", map[string]any{"points": 25}, s.h)
	must(t, e.DoJSON(http.MethodPost, s.purchasesPath(), map[string]any{"reward_id": rw}, s.h), http.StatusAccepted)
	visit := defineEvent(t, e, app, "visit", nil)
	rule := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 2, "card_definition_id": s.cardDef}}}}}}, s.h)["id"].(string)
	for range 3 {
		must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}

	today := time.Now().UTC()
	base := "/v2/loyalties/programs/" + s.program + "/reports/"
	q := "?start_date=" + today.AddDate(0, 0, -1).Format(time.DateOnly) + "&end_date=" + today.Format(time.DateOnly) + "&resolution=day"
	spend := mustOK(t, e, http.MethodGet, base+"spending/daily"+q, nil, s.h)["data"].([]any)
	if len(spend) != 2 || spend[0].(map[string]any)["points"] != 0.0 {
		t.Fatalf("spending %s, want two days, none yesterday", mustJSON(spend))
	}
	if row := spend[1].(map[string]any); row["date"] != today.Format(time.DateOnly) || row["card_definition_id"] != s.cardDef ||
		row["success"] != 1.0 || row["points"] != 10.0 {
		t.Errorf("today's spending %s, want 1 purchase of 10", mustJSON(row))
	}
	sum := mustOK(t, e, http.MethodGet, base+"spending/summary", nil, s.h)["data"].([]any)
	if len(sum) != 1 || sum[0].(map[string]any)["points_on_rewards"] != 10.0 || sum[0].(map[string]any)["id"] != s.cardDef {
		t.Errorf("spending summary %s", mustJSON(sum))
	}
	rules := mustOK(t, e, http.MethodGet, base+"earning-rules/daily"+q, nil, s.h)["data"].([]any)
	if len(rules) != 1 || rules[0].(map[string]any)["earning_rule_id"] != rule || rules[0].(map[string]any)["success_count"] != 3.0 ||
		rules[0].(map[string]any)["date"] != today.Format(time.DateOnly) {
		t.Errorf("earning rules %s, want 3 awards today", mustJSON(rules))
	}
	if total := mustOK(t, e, http.MethodGet, base+"earning-rules/summary", nil, s.h)["data"].([]any); len(total) != 1 ||
		total[0].(map[string]any)["success_count"] != 3.0 {
		t.Errorf("earning rules summary %s", mustJSON(total))
	}
	earned := mustOK(t, e, http.MethodGet, base+"points-earnings/daily"+q, nil, s.h)["data"].([]any)
	if len(earned) != 1 || earned[0].(map[string]any)["points"] != 6.0 || earned[0].(map[string]any)["card_definition_id"] != s.cardDef {
		t.Errorf("points earnings %s, want 6 points today", mustJSON(earned))
	}
	if total := mustOK(t, e, http.MethodGet, base+"points-earnings/summary", nil, s.h)["data"].([]any); len(total) != 1 ||
		total[0].(map[string]any)["success_count"] != 3.0 {
		t.Errorf("points earnings summary %s", mustJSON(total))
	}
	long := "?start_date=" + today.AddDate(0, 0, -90).Format(time.DateOnly) + "&end_date=" + today.Format(time.DateOnly) + "&resolution=day"
	wantErrorKey(t, e.Do(http.MethodGet, base+"spending/daily"+long, nil, s.h), http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, base+"earning-rules/daily", nil, s.h), http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, base+"spending/summary?filters[card_definition_id][conditions][$is]="+s.cardDef, nil, s.h),
		http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, base+"earning-rules/summary", nil, v2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
}
