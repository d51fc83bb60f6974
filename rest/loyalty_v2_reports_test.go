package rest_test

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
	s := newLoyaltySetup(t, e)
	mustOK(t, e, http.MethodPost, s.cardPath()+"/points", map[string]any{"points": 50}, s.h)
	mustOK(t, e, http.MethodPost, s.cardPath()+"/points", map[string]any{"points": -20}, s.h)
	today := time.Now().UTC()
	q := func(from, to time.Time, res string) string {
		return s.cardPath() + "/reports/daily?start_date=" + from.Format(time.DateOnly) + "&end_date=" + to.Format(time.DateOnly) + "&resolution=" + res
	}
	rep := mustOK(t, e, http.MethodGet, q(today.AddDate(0, 0, -2), today.AddDate(0, 0, 1), "day"), nil, s.h)
	data := rep["data"].([]any)
	if len(data) != 4 {
		t.Fatalf("%d rows, want 4 days: %s", len(data), mustJSON(rep))
	}
	row := data[2].(map[string]any)
	if row["date"] != today.Format(time.DateOnly) || row["points_added"] != 50.0 || row["points_subtracted"] != 20.0 || row["points_total"] != 30.0 {
		t.Errorf("today's row %s", mustJSON(row))
	}
	if empty := data[0].(map[string]any); empty["points_total"] != 0.0 {
		t.Errorf("a day without transactions: %s", mustJSON(empty))
	}
	if month := mustOK(t, e, http.MethodGet, q(today.AddDate(0, -11, 0), today, "month"), nil, s.h)["data"].([]any); len(month) != 12 {
		t.Errorf("%d monthly rows, want 12", len(month))
	}
	wantErrorKey(t, e.Do(http.MethodGet, q(today.AddDate(0, 0, -90), today, "day"), nil, s.h), http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, q(today, today, "year"), nil, s.h), http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, s.cardPath()+"/reports/daily", nil, s.h), http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, q(today, today, "day"), nil, v2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
}
