package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2CardReport: today's row of a card's report sums its additions and
// removals; a range longer than the resolution allows is 400; another
// project's card is 404.
func TestV2CardReport(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 50}, s.H)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -20}, s.H)
	today := time.Now().UTC()
	q := func(from, to time.Time, res string) string {
		return s.CardPath() + "/reports/daily?start_date=" + from.Format(time.DateOnly) + "&end_date=" + to.Format(time.DateOnly) + "&resolution=" + res
	}
	rep := resttest.MustOK(t, e, http.MethodGet, q(today.AddDate(0, 0, -2), today.AddDate(0, 0, 1), "day"), nil, s.H)
	data := rep["data"].([]any)
	if len(data) != 4 {
		t.Fatalf("%d rows, want 4 days: %s", len(data), resttest.MustJSON(rep))
	}
	row := data[2].(map[string]any)
	if row["date"] != today.Format(time.DateOnly) || row["points_added"] != 50.0 || row["points_subtracted"] != 20.0 || row["points_total"] != 30.0 {
		t.Errorf("today's row %s", resttest.MustJSON(row))
	}
	if empty := data[0].(map[string]any); empty["points_total"] != 0.0 {
		t.Errorf("a day without transactions: %s", resttest.MustJSON(empty))
	}
	if month := resttest.MustOK(t, e, http.MethodGet, q(today.AddDate(0, -11, 0), today, "month"), nil, s.H)["data"].([]any); len(month) != 12 {
		t.Errorf("%d monthly rows, want 12", len(month))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, q(today.AddDate(0, 0, -90), today, "day"), nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, q(today, today, "year"), nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.CardPath()+"/reports/daily", nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, q(today, today, "day"), nil, resttest.V2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
}

// TestV2MemberEarningRuleReport: each award of the rule on the member's
// cards counts in its day; an unknown rule is 404; a too long range 400.
func TestV2MemberEarningRuleReport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "Visit", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 2, "card_definition_id": s.CardDef}}}}}}, s.H)["id"].(string)
	for range 2 {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	}
	today := time.Now().UTC()
	base := "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member + "/earning-rules/"
	q := "/reports/daily?start_date=" + today.AddDate(0, 0, -1).Format(time.DateOnly) + "&end_date=" + today.Format(time.DateOnly) + "&resolution=day"
	data := resttest.MustOK(t, e, http.MethodGet, base+rule+q, nil, s.H)["data"].([]any)
	if len(data) != 2 || data[0].(map[string]any)["count"] != 0.0 || data[1].(map[string]any)["count"] != 2.0 {
		t.Errorf("report %s, want 0 yesterday and 2 today", resttest.MustJSON(data))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"lern_unknown"+q, nil, s.H), http.StatusNotFound, "not_found")
	long := "/reports/daily?start_date=" + today.AddDate(-1, 0, 0).Format(time.DateOnly) + "&end_date=" + today.Format(time.DateOnly) + "&resolution=quarter"
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+rule+long, nil, s.H), http.StatusBadRequest, "invalid_query_params")
}
