package promotions_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// tierRuleIDs lists the rule ids of a tier object's assignments (nil when
// the tier shows none) and their assignment ids.
func tierRuleIDs(t *testing.T, tier map[string]any) (rules, assignments []string) {
	t.Helper()
	list, _ := tier["validation_rule_assignments"].(map[string]any)
	if list == nil {
		return nil, nil
	}
	for _, x := range list["data"].([]any) {
		a := x.(map[string]any)
		rules = append(rules, a["rule_id"].(string))
		assignments = append(assignments, a["id"].(string))
	}
	if list["total"] != float64(len(rules)) {
		t.Errorf("assignments total = %v for %d entries", list["total"], len(rules))
	}
	return rules, assignments
}

// TestPromotionTierUpdateAssignsRules: PUT /v1/promotions/tiers/{id} with
// validation_rule_assignments or validation_rules makes the tier's rules
// exactly those listed; the assignments endpoints list them and the
// tier's validation uses them; bad entries write nothing.
func TestPromotionTierUpdateAssignsRules(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := resttest.PromotionCampaign(t, e, app, "Reassigned", resttest.AmountTier("Ten off", 1000))
	tier := tiers[0]["id"].(string)
	path := "/v1/promotions/tiers/" + tier
	rule := func(name string, min int) string {
		r := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": name,
			"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{min}}}, "logic": "1"}}, app), http.StatusOK)
		return r["id"].(string)
	}
	big, bigger := rule("big carts", 10000), rule("bigger carts", 30000)
	valid := func(amount int) bool {
		res := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
			map[string]any{"object": "promotion_tier", "id": tier}}, "order": map[string]any{"amount": amount}}, app), http.StatusOK)
		return res["valid"] == true
	}
	listed := func() float64 {
		l := resttest.Must(t, e.Do(http.MethodGet, "/v1/validation-rules-assignments?related_object_id="+tier, nil, app), http.StatusOK)
		return l["total"].(float64)
	}

	got := resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rule_assignments": map[string]any{
		"object": "list", "data": []any{map[string]any{"rule_id": big}}}}, app), http.StatusOK)
	rules, asgm := tierRuleIDs(t, got)
	if len(rules) != 1 || rules[0] != big || listed() != 1 {
		t.Fatalf("after assigning %s: %v (listed %v)", big, got["validation_rule_assignments"], listed())
	}
	if valid(5000) || !valid(20000) {
		t.Errorf("the assigned rule order.amount > 10000 is not what the validation checks")
	}
	// Keeping the assignment by its id and adding a rule.
	got = resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rule_assignments": map[string]any{
		"data": []any{map[string]any{"id": asgm[0]}, map[string]any{"rule_id": bigger}}}}, app), http.StatusOK)
	rules, asgm2 := tierRuleIDs(t, got)
	if len(rules) != 2 || asgm2[0] != asgm[0] || rules[1] != bigger || listed() != 2 {
		t.Fatalf("after keeping %s and adding %s: %v", asgm[0], bigger, got["validation_rule_assignments"])
	}
	if valid(20000) || !valid(40000) {
		t.Errorf("both rules must hold")
	}
	// validation_rules: the rules become exactly these.
	got = resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rules": []string{bigger}}, app), http.StatusOK)
	if rules, a := tierRuleIDs(t, got); len(rules) != 1 || rules[0] != bigger || a[0] != asgm2[1] {
		t.Fatalf("after validation_rules [%s]: %v", bigger, got["validation_rule_assignments"])
	}

	// Bad input answers the documented error and changes nothing.
	for _, c := range []struct {
		name   string
		body   map[string]any
		status int
		key    string
	}{
		{"unknown rule", map[string]any{"name": "Renamed", "validation_rule_assignments": map[string]any{
			"data": []any{map[string]any{"rule_id": "val_nope"}}}}, http.StatusNotFound, "not_found"},
		{"another tier's assignment", map[string]any{"name": "Renamed", "validation_rule_assignments": map[string]any{
			"data": []any{map[string]any{"id": "asgm_nope"}}}}, http.StatusNotFound, "not_found"},
		{"entry without id or rule_id", map[string]any{"validation_rule_assignments": map[string]any{
			"data": []any{map[string]any{}}}}, http.StatusBadRequest, "invalid_payload"},
		{"not a list", map[string]any{"validation_rule_assignments": 5}, http.StatusBadRequest, "invalid_payload"},
		{"list without data", map[string]any{"validation_rule_assignments": map[string]any{}}, http.StatusBadRequest, "invalid_payload"},
		{"both forms", map[string]any{"validation_rules": []string{big}, "validation_rule_assignments": nil},
			http.StatusBadRequest, "invalid_payload"},
		{"assignment of another rule", map[string]any{"validation_rule_assignments": map[string]any{
			"data": []any{map[string]any{"id": asgm2[1], "rule_id": big}}}}, http.StatusBadRequest, "invalid_payload"},
	} {
		resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, c.body, app), c.status, c.key)
		now := resttest.Must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK)
		if rules, _ := tierRuleIDs(t, now); len(rules) != 1 || rules[0] != bigger || now["name"] != "Ten off" || listed() != 1 {
			t.Errorf("%s wrote something: %v", c.name, now)
		}
	}

	// null removes every assignment: the tier shows null and any cart passes.
	got = resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rule_assignments": nil}, app), http.StatusOK)
	if got["validation_rule_assignments"] != nil || listed() != 0 || !valid(100) {
		t.Errorf("after null: %v (listed %v)", got["validation_rule_assignments"], listed())
	}
	// validation_rules: null too (the rule assigned again first); both
	// forms at once stay a 400.
	resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rules": []string{bigger}}, app), http.StatusOK)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rules": nil, "validation_rule_assignments": nil}, app),
		http.StatusBadRequest, "invalid_payload")
	if listed() != 1 {
		t.Errorf("a refused update changed the assignments: listed %v", listed())
	}
	got = resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"validation_rules": nil}, app), http.StatusOK)
	if got["validation_rule_assignments"] != nil || listed() != 0 || !valid(100) {
		t.Errorf("after validation_rules null: %v (listed %v)", got["validation_rule_assignments"], listed())
	}
}
