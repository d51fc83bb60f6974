package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2ProgramTiersReport: a member joining, climbing and falling back
// through tiers counts in today's row of each tier and in the summary; a
// too long range is 400; another project's program is 404; GraphQL
// programTiersReport answers the same.
func TestV2ProgramTiersReport(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	_, tiers := tierStructure(t, e, s)
	for _, n := range []int{50, 100, -140} { // joins tier 0, upgrades to 1, downgrades to 0
		resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": n}, s.H)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	base := "/v2/loyalties/programs/" + s.Program + "/reports/tiers/"
	daily := resttest.MustOK(t, e, http.MethodGet, base+"daily?start_date="+today+"&end_date="+today+"&resolution=day", nil, s.H)["data"].([]any)
	byTier := map[string]map[string]any{}
	for _, r := range daily {
		row := r.(map[string]any)
		byTier[row["tier_id"].(string)] = row
		if row["date"] != today {
			t.Errorf("row %s not dated today", resttest.MustJSON(row))
		}
	}
	if low, high := byTier[tiers[0]], byTier[tiers[1]]; len(daily) != 2 || low["joins"] != 1.0 || low["downgrades"] != 1.0 ||
		high["upgrades"] != 1.0 || high["joins"] != 0.0 {
		t.Errorf("tiers report %s", resttest.MustJSON(daily))
	}
	if sum := resttest.MustOK(t, e, http.MethodGet, base+"summary", nil, s.H)["data"].([]any); len(sum) != 2 {
		t.Errorf("tiers summary %s", resttest.MustJSON(sum))
	}
	g := e.GraphQL(resttest.App(e.Project), `query($p: ID!) { programTiersReport(programID: $p) { joins upgrades downgrades } }`,
		map[string]any{"p": s.Program})
	if len(g.Errors) > 0 || len(g.Data["programTiersReport"].([]any)) != 2 {
		t.Errorf("programTiersReport: %+v %s", g.Errors, resttest.MustJSON(g.Data))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"daily?start_date=2020-01-01&end_date="+today+"&resolution=quarter", nil, s.H),
		http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"summary", nil, resttest.V2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
}
