package rest_test

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
	s := newLoyaltySetup(t, e)
	ts := mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures", map[string]any{"name": "Earned",
		"type": "POINT_EARNED", "card_definition_id": s.cardDef,
		"point_earned": map[string]any{"type": "IMMEDIATELY", "period": map[string]any{"value": 1, "unit": "DAY"}},
		"expiration":   map[string]any{"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "YEAR"}}},
		"downgrade":    map[string]any{"type": "MULTI_LEVEL"}}, s.h)["id"].(string)
	var tiers []string
	for _, r := range []map[string]any{{"type": "POINTS", "min_value": 0, "max_value": 99}, {"type": "POINTS", "min_value": 100}} {
		tiers = append(tiers, mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/tiers",
			map[string]any{"name": "Tier", "qualification_rules": r}, s.h)["id"].(string))
	}
	mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/activate", nil, s.h)
	mustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.program+"/tier-structures/batch",
		map[string]any{"assign": []any{map[string]any{"id": ts}}}, s.h)
	mustOK(t, e, http.MethodPost, s.cardPath()+"/points", map[string]any{"points": 150}, s.h)

	ms := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.program+"/memberships/"+s.cust, nil, s.h)
	if p := ms["program"].(map[string]any); mustJSON(p["metadata"]) != `{}` || p["status"] != "ACTIVE" {
		t.Errorf("program %v", p)
	}
	card := ms["cards"].([]any)[0].(map[string]any)
	progress := card["tier_progress"].(map[string]any)
	current := progress["current"].(map[string]any)
	start, err1 := time.Parse(time.RFC3339, current["start_at"].(string))
	expires, err2 := time.Parse(time.RFC3339, current["expires_at"].(string))
	if err1 != nil || err2 != nil || !expires.Equal(start.AddDate(1, 0, 0)) || current["tier"].(map[string]any)["id"] != tiers[1] ||
		mustJSON(current["points"]) != `{"current":150,"min":100}` {
		t.Fatalf("current tier %v", mustJSON(current))
	}
	risks := progress["risks"].([]any)
	if len(risks) != 1 || risks[0].(map[string]any)["type"] != "TIER_DOWNGRADE" || risks[0].(map[string]any)["date"] != current["expires_at"] ||
		risks[0].(map[string]any)["tier"].(map[string]any)["id"] != tiers[0] {
		t.Errorf("risks %v", mustJSON(risks))
	}
	if mustJSON(progress["opportunities"]) != `[]` || mustJSON(progress["deferred"]) != `[]` || progress["object"] != "member_tier_progress" {
		t.Errorf("progress %v", mustJSON(progress))
	}
	c := card["card"].(map[string]any)
	if mustJSON(c["balance"]) != `{"pending_points":0,"points":150}` || c["next_expiration"] != nil || c["next_activation"] != nil ||
		mustJSON(c["lifetime_bucket"].(map[string]any)["pending_points"]) != `{"activated":0,"canceled":0,"total":0}` {
		t.Errorf("card %v", mustJSON(c))
	}

	// GraphQL shows the same card summary and tier progress.
	gql := e.GraphQL(resttest.App(e.Project), `query($p: ID!, $c: ID!) { programMembership(programID: $p, customerID: $c) { cards {
		card { id } summary { pendingPoints lifetime { total added expired } nextExpiration { points } }
		tierProgress { tierStructure { id } current { id } points expiresAt risks { type date tier { id } } opportunities { tier { id } } } } } }`,
		map[string]any{"p": s.program, "c": s.cust})
	if len(gql.Errors) > 0 {
		t.Fatalf("programMembership: %+v", gql.Errors)
	}
	gcard := gql.Data["programMembership"].(map[string]any)["cards"].([]any)[0].(map[string]any)
	gprog := gcard["tierProgress"].(map[string]any)
	gexp, err := time.Parse(time.RFC3339, gprog["expiresAt"].(string))
	if gcard["card"].(map[string]any)["id"] != c["id"] || gprog["tierStructure"].(map[string]any)["id"] != ts ||
		gprog["current"].(map[string]any)["id"] != tiers[1] || gprog["points"] != float64(150) || err != nil || !gexp.Equal(expires) ||
		mustJSON(gprog["risks"]) != `[{"date":`+mustJSON(gprog["expiresAt"])+`,"tier":{"id":"`+tiers[0]+`"},"type":"TIER_DOWNGRADE"}]` ||
		mustJSON(gprog["opportunities"]) != `[]` {
		t.Errorf("GraphQL tier progress %s", mustJSON(gprog))
	}
	if mustJSON(gcard["summary"]) != `{"lifetime":{"added":150,"expired":0,"total":150},"nextExpiration":null,"pendingPoints":0}` {
		t.Errorf("GraphQL card summary %s", mustJSON(gcard["summary"]))
	}

	mustOK(t, e, http.MethodPut, "/v2/loyalties/tier-structures/"+ts, map[string]any{"downgrade": map[string]any{"type": "NO_DOWNGRADE"}}, s.h)
	ms = mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.program+"/memberships/"+s.cust, nil, s.h)
	if risks := ms["cards"].([]any)[0].(map[string]any)["tier_progress"].(map[string]any)["risks"]; mustJSON(risks) != `[]` {
		t.Errorf("risks with NO_DOWNGRADE %v", mustJSON(risks))
	}

	anon := mustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"name": "No source"}, resttest.App(e.Project))["id"].(string)
	if got := mustOK(t, e, http.MethodGet, "/v2/loyalties/memberships/"+anon, nil, s.h); mustJSON(got) !=
		`{"customer":{"id":"`+anon+`","object":"customer","source_id":null},"memberships":[],"object":"memberships_result"}` {
		t.Errorf("memberships of a customer without source_id %s", mustJSON(got))
	}
}
