package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// tierStructure creates an ACTIVE POINT_BALANCE structure over the setup's
// card definition with tiers 10–99, 100–499 and 500+, assigned to the
// program.
func tierStructure(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup) (string, []string) {
	t.Helper()
	ts := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures", map[string]any{"name": "Levels",
		"type": "POINT_BALANCE", "card_definition_id": s.CardDef}, s.H)["id"].(string)
	var tiers []string
	for _, r := range []map[string]any{{"type": "POINTS", "min_value": 10, "max_value": 99},
		{"type": "POINTS", "min_value": 100, "max_value": 499}, {"type": "POINTS", "min_value": 500}} {
		tier := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/tiers",
			map[string]any{"name": "T", "qualification_rules": r}, s.H)
		tiers = append(tiers, tier["id"].(string))
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/activate", nil, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/tier-structures/batch",
		map[string]any{"assign": []any{map[string]any{"id": ts}}}, s.H)
	return ts, tiers
}

// TestV2TierStructureLifecycleAndTiers: tiers' points ranges never overlap
// (400, nothing written), the lifecycle refuses moves it does not allow,
// and a member's tier follows its points, each move a tier transaction.
func TestV2TierStructureLifecycleAndTiers(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	ts, tiers := tierStructure(t, e, s)
	base := "/v2/loyalties/tier-structures/" + ts
	for _, overlap := range []map[string]any{{"type": "POINTS", "min_value": 50, "max_value": 150},
		{"type": "POINTS", "min_value": 1000}, {"type": "POINTS", "min_value": -1}, {"type": "POINTS", "min_value": 10, "max_value": 5}} {
		resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base+"/tiers", map[string]any{"name": "X", "qualification_rules": overlap}, s.H),
			http.StatusBadRequest, "invalid_payload")
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, base+"/tiers/"+tiers[0], map[string]any{"qualification_rules": map[string]any{
		"type": "POINTS", "min_value": 10, "max_value": 100}}, s.H), http.StatusBadRequest, "invalid_payload")
	if got := resttest.MustOK(t, e, http.MethodGet, base+"/tiers?limit=10", nil, s.H)["data"].([]any); len(got) != 3 {
		t.Fatalf("%d tiers after refused writes, want 3", len(got))
	}
	if got := resttest.MustOK(t, e, http.MethodPost, base+"/deactivate", nil, s.H); got["status"] != "INACTIVE" {
		t.Errorf("deactivate: %v", got)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, base+"/deactivate", nil, s.H), http.StatusConflict, "invalid_state_transition")
	resttest.MustOK(t, e, http.MethodPost, base+"/activate", nil, s.H)

	points := func(n int) {
		resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": n}, s.H)
	}
	points(50)
	points(100)
	points(400)
	points(-500)
	txs := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member+"/tiers/transactions?order=created_at", nil, s.H)["data"].([]any)
	var types []string
	for _, tx := range txs {
		types = append(types, tx.(map[string]any)["type"].(string))
	}
	if resttest.MustJSON(types) != `["JOINED","UPGRADED","UPGRADED","DOWNGRADED"]` {
		t.Errorf("tier transactions %v", resttest.MustJSON(txs))
	}
	ms := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/memberships/"+s.Cust, nil, s.H)
	progress := ms["cards"].([]any)[0].(map[string]any)["tier_progress"].(map[string]any)
	current := progress["current"].(map[string]any)
	if current["tier"].(map[string]any)["id"] != tiers[0] || resttest.MustJSON(current["points"]) != `{"current":50,"max":99,"min":10}` ||
		current["start_at"] != txs[3].(map[string]any)["created_at"] || current["expires_at"] != nil ||
		progress["tier_structure"].(map[string]any)["id"] != ts || resttest.MustJSON(progress["risks"]) != `[]` {
		t.Errorf("membership %v", resttest.MustJSON(ms))
	}
	if opp := progress["opportunities"].([]any); len(opp) != 2 || opp[0].(map[string]any)["points"] != float64(50) ||
		opp[1].(map[string]any)["points"] != float64(450) || opp[1].(map[string]any)["tier"].(map[string]any)["id"] != tiers[2] {
		t.Errorf("opportunities %v", resttest.MustJSON(opp))
	}
	all := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/memberships/"+s.Cust, nil, s.H)
	if len(all["memberships"].([]any)) != 1 || all["customer"].(map[string]any)["source_id"] != "member-1" {
		t.Errorf("memberships %v", all)
	}
	if card := all["memberships"].([]any)[0].(map[string]any)["cards"].([]any)[0].(map[string]any); card["tier_progress"] != nil ||
		card["object"] != "member_card" || resttest.MustJSON(card["card"].(map[string]any)["lifetime_bucket"].(map[string]any)["points"]) !=
		`{"added":550,"earned":0,"expired":0,"locked":0,"purchased":0,"purchased_reversed":0,"refunded":0,"returned":0,"spent":0,"subtracted":500,"total":550,"unlocked":0}` {
		t.Errorf("customer memberships' card %v", resttest.MustJSON(card))
	}
	other := e.NewProject("other")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/memberships/"+s.Cust, nil, resttest.V2(t, e, other)), http.StatusNotFound, "not_found")

	resttest.WantErrorKey(t, e.Do(http.MethodDelete, base, nil, s.H), http.StatusConflict, "resource_in_use")
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/tier-structures/batch",
		map[string]any{"unassign": []any{map[string]any{"id": ts}}}, s.H)
	resttest.MustOK(t, e, http.MethodDelete, base+"/tiers/"+tiers[2], nil, s.H)
	if got := resttest.MustOK(t, e, http.MethodDelete, base, nil, s.H); got["status"] != "DELETED" {
		t.Errorf("delete: %v", got)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base, nil, s.H), http.StatusNotFound, "not_found")
	acts := resttest.MustOK(t, e, http.MethodGet, base+"/activities", nil, s.H)
	if d := acts["data"].([]any); len(d) != 7 || d[0].(map[string]any)["type"] != "vl.tier_structure.deleted" {
		t.Errorf("tier structure activities %v", resttest.MustJSON(acts))
	}
}

// TestV2ProgramBatchesAreAllOrNothing: a batch over the limit, with an
// unknown id or a second assignment of one id writes nothing.
func TestV2ProgramBatchesAreAllOrNothing(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)["id"].(string)
	path := "/v2/loyalties/programs/" + s.Program + "/earning-rules"
	many := make([]any, 11)
	for i := range many {
		many[i] = map[string]any{"id": rule}
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path+"/batch", map[string]any{"assign": many}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path+"/batch", map[string]any{"assign": []any{map[string]any{"id": rule},
		map[string]any{"id": "lern_unknown"}}}, s.H), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path+"/batch", map[string]any{"assign": []any{map[string]any{"id": rule},
		map[string]any{"id": rule}}}, s.H), http.StatusConflict, "invalid_state")
	if got := resttest.MustOK(t, e, http.MethodGet, path, nil, s.H)["data"].([]any); len(got) != 0 {
		t.Fatalf("refused batches assigned %v", got)
	}
	got := resttest.MustOK(t, e, http.MethodPost, path+"/batch", map[string]any{"assign": []any{map[string]any{"id": rule}}}, s.H)
	if resttest.MustJSON(got) != `{"assigned":[{"earning_rule_id":"`+rule+`","object":"program_earning_rule"}],"unassigned":null}` {
		t.Errorf("batch %s", resttest.MustJSON(got))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/earning-rules/"+rule, nil, s.H), http.StatusConflict, "resource_in_use")
	resttest.MustOK(t, e, http.MethodPost, path+"/batch", map[string]any{"unassign": []any{map[string]any{"id": rule}}}, s.H)
	if del := resttest.MustOK(t, e, http.MethodDelete, "/v2/loyalties/earning-rules/"+rule, nil, s.H); del["status"] != "DELETED" {
		t.Errorf("earning rule delete %v", del)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/earning-rules/"+rule, nil, s.H), http.StatusNotFound, "not_found")
	var types []string // the refused batches left no activity either
	for _, a := range resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/earning-rules/"+rule+"/activities?order=created_at", nil, s.H)["data"].([]any) {
		types = append(types, a.(map[string]any)["type"].(string))
	}
	if resttest.MustJSON(types) != `["vl.earning_rule.created","vl.earning_rule.assigned","vl.earning_rule.unassigned","vl.earning_rule.deleted"]` {
		t.Errorf("earning rule history %v", types)
	}
}

// TestV2DeletesRefuseResourcesInUse: a program with members and a card
// definition a program uses are 409; a program without members goes, with
// its activities recording it.
func TestV2DeletesRefuseResourcesInUse(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/programs/"+s.Program, nil, s.H), http.StatusConflict, "resource_in_use")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/card-definitions/"+s.CardDef, nil, s.H), http.StatusConflict, "resource_in_use")
	empty := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Empty"}, s.H)["id"].(string)
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/programs/"+empty, map[string]any{"name": "Still empty"}, s.H)
	acts := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+empty+"/activities?order=created_at", nil, s.H)["data"].([]any)
	if len(acts) != 2 || acts[1].(map[string]any)["type"] != "vl.program.updated" {
		t.Errorf("program activities %v", resttest.MustJSON(acts))
	}
	if del := resttest.MustOK(t, e, http.MethodDelete, "/v2/loyalties/programs/"+empty, nil, s.H); del["status"] != "DELETED" {
		t.Errorf("program delete %v", del)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/"+empty, nil, s.H), http.StatusNotFound, "not_found")
	def := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{"name": "Spare"}, s.H)["id"].(string)
	resttest.MustOK(t, e, http.MethodDelete, "/v2/loyalties/card-definitions/"+def, nil, s.H)
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/card-definitions/"+def, nil, s.H), http.StatusNotFound, "not_found")
	history := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+def+"/activities", nil, s.H)["data"].([]any)
	if len(history) != 2 || history[0].(map[string]any)["type"] != "vl.card_definition.deleted" {
		t.Errorf("a deleted card definition's history %v", resttest.MustJSON(history))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/card-definitions/lcdef_unknown/activities", nil, s.H), http.StatusNotFound, "not_found")
}
