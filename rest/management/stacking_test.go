package management_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestStackingRulesLifecycleAndEffect(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	pid := e.Project.ProjectID
	base := resttest.ProjectPath(pid, "/stacking-rules")
	resttest.DiscountCode(t, e, app, "Ten percent", "TEN", map[string]any{"type": "PERCENT", "percent_off": 10}, nil)
	resttest.DiscountCode(t, e, app, "Ten off", "TENOFF", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	validate := func() map[string]any {
		return resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{
			"redeemables": []any{map[string]any{"object": "voucher", "id": "TEN"}, map[string]any{"object": "voucher", "id": "TENOFF"}},
			"order":       resttest.Cart(),
		}, app), http.StatusOK)
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, base, nil, mk), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("list before create: %v", l)
	}
	if got := validate(); len(got["redeemables"].([]any)) != 2 || got["redeemables"].([]any)[1].(map[string]any)["status"] != "APPLICABLE" {
		t.Fatalf("with the defaults: %v", got["redeemables"])
	}

	created := resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"applicable_redeemables_limit": 1,
		"redeemables_application_mode": "PARTIAL", "exclusive_categories": []string{}}, mk), http.StatusOK)
	id := created["id"].(string)
	if created["redeemables_limit"] != float64(30) || created["applicable_redeemables_limit"] != float64(1) ||
		created["redeemables_application_mode"] != "PARTIAL" || created["redeemables_sorting_rule"] != "REQUESTED_ORDER" ||
		created["redeemables_products_application_mode"] != "STACK" || created["updated_at"] != nil || len(id) != 22 {
		t.Errorf("created: %v", created)
	}
	// The engine applies them: the second redeemable is skipped, and the
	// validation echoes the project's rules.
	got := validate()
	skipped, _ := got["skipped_redeemables"].([]any)
	sr := got["stacking_rules"].(map[string]any)
	if len(got["redeemables"].([]any)) != 1 || len(skipped) != 1 || skipped[0].(map[string]any)["status"] != "SKIPPED" ||
		sr["applicable_redeemables_limit"] != float64(1) || sr["redeemables_application_mode"] != "PARTIAL" {
		t.Errorf("with the project's rules: %v / %v", got, sr)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{}, mk), http.StatusConflict, "duplicate_found")

	// Update: only what is sent changes; limits and enums are checked, and
	// settings other than the engine's are refused.
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"redeemables_limit": 1}, mk), http.StatusOK)
	if upd["redeemables_limit"] != float64(1) || upd["redeemables_application_mode"] != "PARTIAL" || upd["updated_at"] == nil {
		t.Errorf("updated: %v", upd)
	}
	r := e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "TEN"}, map[string]any{"object": "voucher", "id": "TENOFF"}},
		"order":       resttest.Cart(),
	}, app)
	resttest.WantErrorKey(t, r, http.StatusBadRequest, "invalid_payload")
	for name, body := range map[string]map[string]any{
		"limit above 30":     {"redeemables_limit": 31},
		"applicable > limit": {"redeemables_limit": 5, "applicable_redeemables_limit": 6},
		"unknown mode":       {"redeemables_application_mode": "SOME"},
		"products mode":      {"redeemables_products_application_mode": "TWICE"},
		"per-category limit": {"applicable_redeemables_per_category_limit": 31},
		"exclusive limit":    {"applicable_exclusive_redeemables_limit": 6},
		"category limit":     {"applicable_redeemables_category_limits": map[string]any{"cat_1": 0}},
	} {
		if r := e.DoJSON(http.MethodPut, base+"/"+id, body, mk); r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	// Category settings must name categories of the project.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"exclusive_categories": []string{"cat_1"}}, mk),
		http.StatusNotFound, "not_found")
	if got := resttest.Must(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusOK); resttest.MustJSON(got) != resttest.MustJSON(upd) {
		t.Errorf("refused updates changed the rules: %v", got)
	}
	// Tenancy: another project has its own (none).
	other := e.NewProject("Other").ProjectID
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(other, "/stacking-rules/", id), nil, mk), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(other, "/stacking-rules/", id), nil, mk), http.StatusNotFound, "not_found")

	// Delete: the defaults apply again.
	if r := e.Do(http.MethodDelete, base+"/"+id, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if got := validate(); got["stacking_rules"].(map[string]any)["redeemables_limit"] != float64(30) {
		t.Errorf("after delete: %v", got["stacking_rules"])
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusNotFound, "not_found")
}

func TestStackingRulesThroughTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	vars := map[string]any{"p": pid}
	created := resttest.GQLObject(t, e, mk, "createManagementStackingRules", `mutation($p: ID!) {
		createManagementStackingRules(projectID: $p, input: {redeemablesSortingRule: "CATEGORY_HIERARCHY"}) {
			id redeemablesSortingRule redeemablesLimit applicableRedeemablesCategoryLimits exclusiveCategories createdAt updatedAt } }`, vars)
	if created["redeemablesSortingRule"] != "CATEGORY_HIERARCHY" || created["redeemablesLimit"] != float64(30) || created["updatedAt"] != nil {
		t.Errorf("created: %v", created)
	}
	resttest.GQLError(t, e, mk, 409, "duplicate_found", `mutation($p: ID!) { createManagementStackingRules(projectID: $p, input: {}) { id } }`, vars)
	vars["id"] = created["id"]
	resttest.GQLError(t, e, mk, 400, "invalid_payload", `mutation($p: ID!, $id: ID!) {
		updateManagementStackingRules(projectID: $p, id: $id, input: {applicableRedeemablesLimit: 0}) { id } }`, vars)
	upd := resttest.GQLObject(t, e, mk, "updateManagementStackingRules", `mutation($p: ID!, $id: ID!) {
		updateManagementStackingRules(projectID: $p, id: $id, input: {redeemablesNoEffectRule: "SKIP"}) { redeemablesNoEffectRule redeemablesSortingRule } }`, vars)
	if upd["redeemablesNoEffectRule"] != "SKIP" || upd["redeemablesSortingRule"] != "CATEGORY_HIERARCHY" {
		t.Errorf("updated: %v", upd)
	}
	// REST reads what the graph wrote.
	if got := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(pid, "/stacking-rules/", created["id"].(string)), nil, mk), http.StatusOK); got["redeemables_no_effect_rule"] != "SKIP" {
		t.Errorf("REST view: %v", got)
	}
	if l := resttest.GQLData(t, e, mk, "managementStackingRulesList", `query($p: ID!) { managementStackingRulesList(projectID: $p) { id } }`, map[string]any{"p": pid}); len(l.([]any)) != 1 {
		t.Errorf("managementStackingRulesList = %v", l)
	}
	resttest.GQLData(t, e, mk, "deleteManagementStackingRules", `mutation($p: ID!, $id: ID!) { deleteManagementStackingRules(projectID: $p, id: $id) }`, vars)
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $id: ID!) { managementStackingRules(projectID: $p, id: $id) { id } }`, vars)
}
