package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2MembershipTierProgressRisk: a program's membership shows the
// member's tier progress in the August document's shape; with a POINT_EARNED
// structure whose tiers expire a year after they are reached, the points
// earned within the tracking day before that date (none, if nothing
// happens) put the member back in the lower tier: a TIER_DOWNGRADE risk on
// the expiry date. A structure with NO_DOWNGRADE has no risk. A customer
// without a source_id answers source_id null.
func TestV2MembershipTierProgressRisk(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	ts := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures", map[string]any{"name": "Earned",
		"type": "POINT_EARNED", "card_definition_id": s.CardDef,
		"point_earned": map[string]any{"type": "IMMEDIATELY", "period": map[string]any{"value": 1, "unit": "DAY"}},
		"expiration":   map[string]any{"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "YEAR"}}},
		"downgrade":    map[string]any{"type": "MULTI_LEVEL"}}, s.H)["id"].(string)
	var tiers []string
	for _, r := range []map[string]any{{"type": "POINTS", "min_value": 0, "max_value": 99}, {"type": "POINTS", "min_value": 100}} {
		tiers = append(tiers, resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/tiers",
			map[string]any{"name": "Tier", "qualification_rules": r}, s.H)["id"].(string))
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/activate", nil, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/tier-structures/batch",
		map[string]any{"assign": []any{map[string]any{"id": ts}}}, s.H)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 150}, s.H)

	ms := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/memberships/"+s.Cust, nil, s.H)
	if p := ms["program"].(map[string]any); resttest.MustJSON(p["metadata"]) != `{}` || p["status"] != "ACTIVE" {
		t.Errorf("program %v", p)
	}
	card := ms["cards"].([]any)[0].(map[string]any)
	progress := card["tier_progress"].(map[string]any)
	current := progress["current"].(map[string]any)
	start, err1 := time.Parse(time.RFC3339, current["start_at"].(string))
	expires, err2 := time.Parse(time.RFC3339, current["expires_at"].(string))
	if err1 != nil || err2 != nil || !expires.Equal(start.AddDate(1, 0, 0)) || current["tier"].(map[string]any)["id"] != tiers[1] ||
		resttest.MustJSON(current["points"]) != `{"current":150,"min":100}` {
		t.Fatalf("current tier %v", resttest.MustJSON(current))
	}
	risks := progress["risks"].([]any)
	if len(risks) != 1 || risks[0].(map[string]any)["type"] != "TIER_DOWNGRADE" || risks[0].(map[string]any)["date"] != current["expires_at"] ||
		risks[0].(map[string]any)["tier"].(map[string]any)["id"] != tiers[0] {
		t.Errorf("risks %v", resttest.MustJSON(risks))
	}
	if resttest.MustJSON(progress["opportunities"]) != `[]` || resttest.MustJSON(progress["deferred"]) != `[]` || progress["object"] != "member_tier_progress" {
		t.Errorf("progress %v", resttest.MustJSON(progress))
	}
	c := card["card"].(map[string]any)
	if resttest.MustJSON(c["balance"]) != `{"pending_points":0,"points":150}` || c["next_expiration"] != nil || c["next_activation"] != nil ||
		resttest.MustJSON(c["lifetime_bucket"].(map[string]any)["pending_points"]) != `{"activated":0,"canceled":0,"total":0}` {
		t.Errorf("card %v", resttest.MustJSON(c))
	}

	// GraphQL shows the same card summary and tier progress.
	gql := e.GraphQL(resttest.App(e.Project), `query($p: ID!, $c: ID!) { programMembership(programID: $p, customerID: $c) { cards {
		card { id } summary { pendingPoints lifetime { total added expired } nextExpiration { points } }
		tierProgress { tierStructure { id } current { id } points expiresAt risks { type date tier { id } } opportunities { tier { id } } } } } }`,
		map[string]any{"p": s.Program, "c": s.Cust})
	if len(gql.Errors) > 0 {
		t.Fatalf("programMembership: %+v", gql.Errors)
	}
	gcard := gql.Data["programMembership"].(map[string]any)["cards"].([]any)[0].(map[string]any)
	gprog := gcard["tierProgress"].(map[string]any)
	gexp, err := time.Parse(time.RFC3339, gprog["expiresAt"].(string))
	if gcard["card"].(map[string]any)["id"] != c["id"] || gprog["tierStructure"].(map[string]any)["id"] != ts ||
		gprog["current"].(map[string]any)["id"] != tiers[1] || gprog["points"] != float64(150) || err != nil || !gexp.Equal(expires) ||
		resttest.MustJSON(gprog["risks"]) != `[{"date":`+resttest.MustJSON(gprog["expiresAt"])+`,"tier":{"id":"`+tiers[0]+`"},"type":"TIER_DOWNGRADE"}]` ||
		resttest.MustJSON(gprog["opportunities"]) != `[]` {
		t.Errorf("GraphQL tier progress %s", resttest.MustJSON(gprog))
	}
	if resttest.MustJSON(gcard["summary"]) != `{"lifetime":{"added":150,"expired":0,"total":150},"nextExpiration":null,"pendingPoints":0}` {
		t.Errorf("GraphQL card summary %s", resttest.MustJSON(gcard["summary"]))
	}

	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/tier-structures/"+ts, map[string]any{"downgrade": map[string]any{"type": "NO_DOWNGRADE"}}, s.H)
	ms = resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/memberships/"+s.Cust, nil, s.H)
	if risks := ms["cards"].([]any)[0].(map[string]any)["tier_progress"].(map[string]any)["risks"]; resttest.MustJSON(risks) != `[]` {
		t.Errorf("risks with NO_DOWNGRADE %v", resttest.MustJSON(risks))
	}

	anon := resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"name": "No source"}, resttest.App(e.Project))["id"].(string)
	if got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/memberships/"+anon, nil, s.H); resttest.MustJSON(got) !=
		`{"customer":{"id":"`+anon+`","object":"customer","source_id":null},"memberships":[],"object":"memberships_result"}` {
		t.Errorf("memberships of a customer without source_id %s", resttest.MustJSON(got))
	}
}
