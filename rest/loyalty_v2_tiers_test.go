package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// tierStructure creates an ACTIVE POINT_BALANCE structure over the setup's
// card definition with tiers 10–99, 100–499 and 500+, assigned to the
// program.
func tierStructure(t *testing.T, e *resttest.Env, s loyaltySetup) (string, []string) {
	t.Helper()
	ts := mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures", map[string]any{"name": "Levels",
		"type": "POINT_BALANCE", "card_definition_id": s.cardDef}, s.h)["id"].(string)
	var tiers []string
	for _, r := range []map[string]any{{"type": "POINTS", "min_value": 10, "max_value": 99},
		{"type": "POINTS", "min_value": 100, "max_value": 499}, {"type": "POINTS", "min_value": 500}} {
		tier := mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/tiers",
			map[string]any{"name": "T", "qualification_rules": r}, s.h)
		tiers = append(tiers, tier["id"].(string))
	}
	mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/activate", nil, s.h)
	mustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.program+"/tier-structures/batch",
		map[string]any{"assign": []any{map[string]any{"id": ts}}}, s.h)
	return ts, tiers
}

// TestV2TierStructureLifecycleAndTiers: tiers' points ranges never overlap
// (400, nothing written), the lifecycle refuses moves it does not allow,
// and a member's tier follows its points, each move a tier transaction.
func TestV2TierStructureLifecycleAndTiers(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	ts, tiers := tierStructure(t, e, s)
	base := "/v2/loyalties/tier-structures/" + ts
	for _, overlap := range []map[string]any{{"type": "POINTS", "min_value": 50, "max_value": 150},
		{"type": "POINTS", "min_value": 1000}, {"type": "POINTS", "min_value": -1}, {"type": "POINTS", "min_value": 10, "max_value": 5}} {
		wantErrorKey(t, e.DoJSON(http.MethodPost, base+"/tiers", map[string]any{"name": "X", "qualification_rules": overlap}, s.h),
			http.StatusBadRequest, "invalid_payload")
	}
	wantErrorKey(t, e.DoJSON(http.MethodPut, base+"/tiers/"+tiers[0], map[string]any{"qualification_rules": map[string]any{
		"type": "POINTS", "min_value": 10, "max_value": 100}}, s.h), http.StatusBadRequest, "invalid_payload")
	if got := mustOK(t, e, http.MethodGet, base+"/tiers?limit=10", nil, s.h)["data"].([]any); len(got) != 3 {
		t.Fatalf("%d tiers after refused writes, want 3", len(got))
	}
	if got := mustOK(t, e, http.MethodPost, base+"/deactivate", nil, s.h); got["status"] != "INACTIVE" {
		t.Errorf("deactivate: %v", got)
	}
	wantErrorKey(t, e.Do(http.MethodPost, base+"/deactivate", nil, s.h), http.StatusConflict, "invalid_state_transition")
	mustOK(t, e, http.MethodPost, base+"/activate", nil, s.h)

	points := func(n int) {
		mustOK(t, e, http.MethodPost, s.cardPath()+"/points", map[string]any{"points": n}, s.h)
	}
	points(50)
	points(100)
	points(400)
	points(-500)
	txs := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.program+"/members/"+s.member+"/tiers/transactions?order=created_at", nil, s.h)["data"].([]any)
	var types []string
	for _, tx := range txs {
		types = append(types, tx.(map[string]any)["type"].(string))
	}
	if mustJSON(types) != `["JOINED","UPGRADED","UPGRADED","DOWNGRADED"]` {
		t.Errorf("tier transactions %v", mustJSON(txs))
	}
	ms := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.program+"/memberships/"+s.cust, nil, s.h)
	progress := ms["cards"].([]any)[0].(map[string]any)["tier_progress"].(map[string]any)
	current := progress["current"].(map[string]any)
	if current["tier"].(map[string]any)["id"] != tiers[0] || mustJSON(current["points"]) != `{"current":50,"max":99,"min":10}` ||
		current["start_at"] != txs[3].(map[string]any)["created_at"] || current["expires_at"] != nil ||
		progress["tier_structure"].(map[string]any)["id"] != ts || mustJSON(progress["risks"]) != `[]` {
		t.Errorf("membership %v", mustJSON(ms))
	}
	if opp := progress["opportunities"].([]any); len(opp) != 2 || opp[0].(map[string]any)["points"] != float64(50) ||
		opp[1].(map[string]any)["points"] != float64(450) || opp[1].(map[string]any)["tier"].(map[string]any)["id"] != tiers[2] {
		t.Errorf("opportunities %v", mustJSON(opp))
	}
	all := mustOK(t, e, http.MethodGet, "/v2/loyalties/memberships/"+s.cust, nil, s.h)
	if len(all["memberships"].([]any)) != 1 || all["customer"].(map[string]any)["source_id"] != "member-1" {
		t.Errorf("memberships %v", all)
	}
	if card := all["memberships"].([]any)[0].(map[string]any)["cards"].([]any)[0].(map[string]any); card["tier_progress"] != nil ||
		card["object"] != "member_card" || mustJSON(card["card"].(map[string]any)["lifetime_bucket"].(map[string]any)["points"]) !=
		`{"added":550,"earned":0,"expired":0,"locked":0,"purchased":0,"purchased_reversed":0,"refunded":0,"returned":0,"spent":0,"subtracted":500,"total":550,"unlocked":0}` {
		t.Errorf("customer memberships' card %v", mustJSON(card))
	}
	other := e.NewProject("other")
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/memberships/"+s.cust, nil, v2(t, e, other)), http.StatusNotFound, "not_found")

	wantErrorKey(t, e.Do(http.MethodDelete, base, nil, s.h), http.StatusConflict, "resource_in_use")
	mustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.program+"/tier-structures/batch",
		map[string]any{"unassign": []any{map[string]any{"id": ts}}}, s.h)
	mustOK(t, e, http.MethodDelete, base+"/tiers/"+tiers[2], nil, s.h)
	if got := mustOK(t, e, http.MethodDelete, base, nil, s.h); got["status"] != "DELETED" {
		t.Errorf("delete: %v", got)
	}
	wantErrorKey(t, e.Do(http.MethodGet, base, nil, s.h), http.StatusNotFound, "not_found")
	acts := mustOK(t, e, http.MethodGet, base+"/activities", nil, s.h)
	if d := acts["data"].([]any); len(d) != 7 || d[0].(map[string]any)["type"] != "vl.tier_structure.deleted" {
		t.Errorf("tier structure activities %v", mustJSON(acts))
	}
}

// TestV2ProgramBatchesAreAllOrNothing: a batch over the limit, with an
// unknown id or a second assignment of one id writes nothing.
func TestV2ProgramBatchesAreAllOrNothing(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	rule := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", earningRuleBody(s.cardDef, "ACTIVE"), s.h)["id"].(string)
	path := "/v2/loyalties/programs/" + s.program + "/earning-rules"
	many := make([]any, 11)
	for i := range many {
		many[i] = map[string]any{"id": rule}
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, path+"/batch", map[string]any{"assign": many}, s.h), http.StatusBadRequest, "invalid_payload")
	wantErrorKey(t, e.DoJSON(http.MethodPost, path+"/batch", map[string]any{"assign": []any{map[string]any{"id": rule},
		map[string]any{"id": "lern_unknown"}}}, s.h), http.StatusNotFound, "not_found")
	wantErrorKey(t, e.DoJSON(http.MethodPost, path+"/batch", map[string]any{"assign": []any{map[string]any{"id": rule},
		map[string]any{"id": rule}}}, s.h), http.StatusConflict, "invalid_state")
	if got := mustOK(t, e, http.MethodGet, path, nil, s.h)["data"].([]any); len(got) != 0 {
		t.Fatalf("refused batches assigned %v", got)
	}
	got := mustOK(t, e, http.MethodPost, path+"/batch", map[string]any{"assign": []any{map[string]any{"id": rule}}}, s.h)
	if mustJSON(got) != `{"assigned":[{"earning_rule_id":"`+rule+`","object":"program_earning_rule"}],"unassigned":null}` {
		t.Errorf("batch %s", mustJSON(got))
	}
	wantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/earning-rules/"+rule, nil, s.h), http.StatusConflict, "resource_in_use")
	mustOK(t, e, http.MethodPost, path+"/batch", map[string]any{"unassign": []any{map[string]any{"id": rule}}}, s.h)
	if del := mustOK(t, e, http.MethodDelete, "/v2/loyalties/earning-rules/"+rule, nil, s.h); del["status"] != "DELETED" {
		t.Errorf("earning rule delete %v", del)
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/earning-rules/"+rule, nil, s.h), http.StatusNotFound, "not_found")
	var types []string // the refused batches left no activity either
	for _, a := range mustOK(t, e, http.MethodGet, "/v2/loyalties/earning-rules/"+rule+"/activities?order=created_at", nil, s.h)["data"].([]any) {
		types = append(types, a.(map[string]any)["type"].(string))
	}
	if mustJSON(types) != `["vl.earning_rule.created","vl.earning_rule.assigned","vl.earning_rule.unassigned","vl.earning_rule.deleted"]` {
		t.Errorf("earning rule history %v", types)
	}
}

// TestV2DeletesRefuseResourcesInUse: a program with members and a card
// definition a program uses are 409; a program without members goes, with
// its activities recording it.
func TestV2DeletesRefuseResourcesInUse(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	wantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/programs/"+s.program, nil, s.h), http.StatusConflict, "resource_in_use")
	wantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/card-definitions/"+s.cardDef, nil, s.h), http.StatusConflict, "resource_in_use")
	empty := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Empty"}, s.h)["id"].(string)
	mustOK(t, e, http.MethodPut, "/v2/loyalties/programs/"+empty, map[string]any{"name": "Still empty"}, s.h)
	acts := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+empty+"/activities?order=created_at", nil, s.h)["data"].([]any)
	if len(acts) != 2 || acts[1].(map[string]any)["type"] != "vl.program.updated" {
		t.Errorf("program activities %v", mustJSON(acts))
	}
	if del := mustOK(t, e, http.MethodDelete, "/v2/loyalties/programs/"+empty, nil, s.h); del["status"] != "DELETED" {
		t.Errorf("program delete %v", del)
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/"+empty, nil, s.h), http.StatusNotFound, "not_found")
	def := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{"name": "Spare"}, s.h)["id"].(string)
	mustOK(t, e, http.MethodDelete, "/v2/loyalties/card-definitions/"+def, nil, s.h)
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/card-definitions/"+def, nil, s.h), http.StatusNotFound, "not_found")
	history := mustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+def+"/activities", nil, s.h)["data"].([]any)
	if len(history) != 2 || history[0].(map[string]any)["type"] != "vl.card_definition.deleted" {
		t.Errorf("a deleted card definition's history %v", mustJSON(history))
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/card-definitions/lcdef_unknown/activities", nil, s.h), http.StatusNotFound, "not_found")
}
