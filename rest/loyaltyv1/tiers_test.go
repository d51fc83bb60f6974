package loyaltyv1_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestV1TiersRangesMultipliersAndMemberTier(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Tiers", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "tia")["code"].(string)
	pageView := resttest.DefineEvent(t, e, app, "page_view", nil)
	r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "page_view",
		"custom_event": map[string]any{"schema_id": pageView["id"]}, "loyalty": map[string]any{"type": "FIXED", "points": 10}}}, app)
	var rules []map[string]any
	if err := json.Unmarshal(r.Body, &rules); err != nil || r.Status != http.StatusOK {
		t.Fatalf("rule: %d %s", r.Status, r.Body)
	}
	ruleID := rules[0]["id"].(string)
	tiersPath := "/v1/loyalties/" + id + "/tiers"
	r = e.DoJSON(http.MethodPost, tiersPath, []any{
		map[string]any{"name": "Bronze", "points": map[string]any{"from": 0, "to": 99}},
		map[string]any{"name": "Silver", "points": map[string]any{"from": 100, "to": 499},
			"earning_rules": map[string]any{ruleID: map[string]any{"type": "MULTIPLY", "multiplier": 1.5}}},
		map[string]any{"name": "Gold", "points": map[string]any{"from": 500},
			"earning_rules": map[string]any{ruleID: map[string]any{"type": "CUSTOM", "points": 100}}},
	}, app)
	var tiers []map[string]any
	if err := json.Unmarshal(r.Body, &tiers); err != nil || r.Status != http.StatusOK || len(tiers) != 3 {
		t.Fatalf("tiers: %d %s", r.Status, r.Body)
	}
	silver := tiers[1]
	if !strings.HasPrefix(silver["id"].(string), "ltr_") || silver["object"] != "loyalty_tier" ||
		silver["points"].(map[string]any)["from"] != float64(100) || silver["config"].(map[string]any)["points"].(map[string]any)["to"] != float64(499) {
		t.Errorf("silver %v", silver)
	}
	// Overlaps (with a stored tier or inside the batch) and bad mappings write nothing.
	for name, body := range map[string][]any{
		"overlaps gold":      {map[string]any{"name": "Platinum", "points": map[string]any{"from": 1000, "to": 2000}}},
		"negative bound":     {map[string]any{"name": "A", "points": map[string]any{"from": -5, "to": 3}}},
		"from above to":      {map[string]any{"name": "B", "points": map[string]any{"from": 10, "to": 5}}},
		"bad multiplier":     {map[string]any{"name": "C", "earning_rules": map[string]any{ruleID: map[string]any{"type": "MULTIPLY", "multiplier": 0}}}},
		"no name":            {map[string]any{"points": map[string]any{"from": 5000}}},
		"unbounded overlaps": {map[string]any{"name": "D"}},
	} {
		if r := e.DoJSON(http.MethodPost, tiersPath, body, app); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, tiersPath, []any{map[string]any{"name": "E",
		"earning_rules": map[string]any{"ern_nope": map[string]any{"type": "CUSTOM", "points": 1}}}}, app), 404, "not_found")
	if list := resttest.MustOK(t, e, http.MethodGet, tiersPath, nil, app); list["total"] != float64(3) {
		t.Fatalf("tiers after refused creates %v", list)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, tiersPath+"/"+silver["id"].(string), nil, app); got["name"] != "Silver" {
		t.Errorf("get %v", got)
	}
	mapped := resttest.MustOK(t, e, http.MethodGet, tiersPath+"/"+silver["id"].(string)+"/earning-rules", nil, app)
	if d := mapped["data"].([]any); len(d) != 1 || d[0].(map[string]any)["loyalty"].(map[string]any)["points"] != float64(15) {
		t.Errorf("silver's earning rules %v", mapped)
	}

	// The member's tier follows the balance; earning applies its mapping.
	memberTier := func() string {
		ts := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/tiers", nil, app)["data"].([]any)
		if len(ts) != 1 {
			return ""
		}
		return ts[0].(map[string]any)["name"].(string)
	}
	event := func() {
		if r := e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "page_view", "customer": map[string]any{"source_id": "tia"}}, app); r.Status != http.StatusOK {
			t.Fatalf("event: %d %s", r.Status, r.Body)
		}
	}
	balance := func() float64 {
		return resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)["loyalty_card"].(map[string]any)["balance"].(float64)
	}
	if got := memberTier(); got != "Bronze" {
		t.Errorf("tier at 0 points %q", got)
	}
	event() // Bronze: 10
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 90}, app)
	if got := memberTier(); got != "Silver" {
		t.Errorf("tier at 100 points %q", got)
	}
	event() // Silver: 10 × 1.5
	if b := balance(); b != 115 {
		t.Errorf("balance after a Silver event %v, want 115", b)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 400}, app)
	event() // Gold: CUSTOM 100
	if b := balance(); b != 615 || memberTier() != "Gold" {
		t.Errorf("balance after a Gold event %v (tier %s), want 615", b, memberTier())
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, tiersPath+"/ltr_nope", nil, app), 404, "not_found")
}
