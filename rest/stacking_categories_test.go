package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// stackingFixture is a project with categories and codes in them.
type stackingFixture struct {
	e    *resttest.Env
	app  resttest.Headers
	mk   resttest.Headers
	cats map[string]string // name → id
	base string            // the project's stacking-rules path
}

func newStackingFixture(t *testing.T) *stackingFixture {
	t.Helper()
	e := resttest.New(t)
	f := &stackingFixture{e: e, app: resttest.App(e.Project), mk: e.NewManagementKey(), cats: map[string]string{},
		base: projectPath(e.Project.ProjectID, "/stacking-rules")}
	for name, h := range map[string]int{"A": 2, "B": 1, "X": 3, "J": 4} {
		f.cats[name] = createCategory(t, e, f.app, name, h)["id"].(string)
	}
	return f
}

// code makes a standalone code in category cat ("" none) with discount d.
func (f *stackingFixture) code(t *testing.T, code, cat string, d map[string]any) {
	t.Helper()
	body := map[string]any{"code": code, "type": "DISCOUNT_VOUCHER", "discount": d}
	if cat != "" {
		body["category_id"] = f.cats[cat]
	}
	must(t, f.e.DoJSON(http.MethodPost, "/v1/vouchers", body, f.app), http.StatusOK)
}

func amountOff(v int) map[string]any { return map[string]any{"type": "AMOUNT", "amount_off": v} }

// rules creates the project's stacking rules.
func (f *stackingFixture) rules(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return must(t, f.e.DoJSON(http.MethodPost, f.base, body, f.mk), http.StatusOK)
}

// validate validates codes against the reference cart (6000).
func (f *stackingFixture) validate(t *testing.T, codes ...string) map[string]any {
	t.Helper()
	return must(t, f.e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": redeemables(codes...),
		"order": cart()}, f.app), http.StatusOK)
}

func redeemables(codes ...string) []any {
	out := make([]any, len(codes))
	for i, c := range codes {
		out[i] = map[string]any{"object": "voucher", "id": c}
	}
	return out
}

// outcomes maps each redeemable of a response's lists to "STATUS:key".
func stackOutcomes(res map[string]any) map[string]string {
	out := map[string]string{}
	for _, list := range []string{"redeemables", "inapplicable_redeemables", "skipped_redeemables"} {
		items, _ := res[list].([]any)
		for _, it := range items {
			r := it.(map[string]any)
			key := ""
			if res, ok := r["result"].(map[string]any); ok {
				if d, ok := res["details"].(map[string]any); ok {
					key, _ = d["key"].(string)
				}
				if e, ok := res["error"].(map[string]any); ok {
					key, _ = e["key"].(string)
				}
			}
			out[r["id"].(string)] = r["status"].(string) + ":" + key
		}
	}
	return out
}

func wantStackOutcomes(t *testing.T, res map[string]any, want map[string]string) {
	t.Helper()
	got := stackOutcomes(res)
	for code, w := range want {
		if got[code] != w {
			t.Errorf("%s: %s, want %s (all: %v)", code, got[code], w, got)
		}
	}
}

func TestStackingPerCategoryLimit(t *testing.T) {
	f := newStackingFixture(t)
	f.code(t, "A1", "A", amountOff(100))
	f.code(t, "A2", "A", amountOff(100))
	f.code(t, "B1", "B", amountOff(100))
	f.code(t, "NONE", "", amountOff(100))
	// A campaign's category counts for its codes without their own.
	discountCode(t, f.e, f.app, "In A", "CA", amountOff(100), nil)
	must(t, f.e.DoJSON(http.MethodPut, "/v1/campaigns/In%20A", map[string]any{"category_id": f.cats["A"]}, f.app), http.StatusOK)

	// Defaults: one per category.
	res := f.validate(t, "A1", "A2", "B1", "NONE", "CA")
	wantStackOutcomes(t, res, map[string]string{"A1": "APPLICABLE:", "A2": "SKIPPED:applicable_redeemables_per_category_limit_exceeded",
		"B1": "APPLICABLE:", "NONE": "APPLICABLE:", "CA": "SKIPPED:applicable_redeemables_per_category_limit_exceeded"})
	if res["valid"] != true || num(res["order"].(map[string]any)["total_discount_amount"]) != 300 {
		t.Errorf("valid %v, order %v", res["valid"], res["order"])
	}
	// APPLICABLE shows its categories; SKIPPED does not.
	rs := res["redeemables"].([]any)
	first, second := rs[0].(map[string]any), rs[1].(map[string]any)
	cats, _ := first["categories"].([]any)
	if len(cats) != 1 || cats[0].(map[string]any)["id"] != f.cats["A"] || cats[0].(map[string]any)["object"] != "category" ||
		second["categories"] != nil || second["result"].(map[string]any)["details"].(map[string]any)["message"] == "" {
		t.Errorf("categories: %v / %v", first, second)
	}
	if none := rs[3].(map[string]any); len(none["categories"].([]any)) != 0 {
		t.Errorf("no category: %v", none["categories"])
	}

	// Project rules: 2 per category, A overridden to 3; echoed by the validation.
	f.rules(t, map[string]any{"applicable_redeemables_per_category_limit": 2,
		"applicable_redeemables_category_limits": map[string]any{f.cats["A"]: 3}, "applicable_redeemables_limit": 10})
	res = f.validate(t, "A1", "A2", "CA", "B1")
	wantStackOutcomes(t, res, map[string]string{"A1": "APPLICABLE:", "A2": "APPLICABLE:", "CA": "APPLICABLE:", "B1": "APPLICABLE:"})
	sr := res["stacking_rules"].(map[string]any)
	if sr["applicable_redeemables_per_category_limit"] != float64(2) ||
		sr["applicable_redeemables_category_limits"].(map[string]any)[f.cats["A"]] != float64(3) {
		t.Errorf("stacking_rules = %v", sr)
	}
}

func TestStackingExclusiveAndJointCategories(t *testing.T) {
	f := newStackingFixture(t)
	f.code(t, "A1", "A", amountOff(100))
	f.code(t, "X1", "X", amountOff(100))
	f.code(t, "X2", "X", amountOff(100))
	f.code(t, "J1", "J", amountOff(100))
	f.code(t, "NONE", "", amountOff(100))
	created := f.rules(t, map[string]any{"exclusive_categories": []string{f.cats["X"]}, "joint_categories": []string{f.cats["J"]}})
	if ex := created["exclusive_categories"].([]any); len(ex) != 1 || ex[0] != f.cats["X"] {
		t.Fatalf("created = %v", created)
	}

	// An exclusive code leaves only joint ones beside it, whatever the order.
	res := f.validate(t, "A1", "NONE", "X1", "J1")
	wantStackOutcomes(t, res, map[string]string{"A1": "SKIPPED:exclusion_rules_not_met", "NONE": "SKIPPED:exclusion_rules_not_met",
		"X1": "APPLICABLE:", "J1": "APPLICABLE:"})
	if res["valid"] != true || num(res["order"].(map[string]any)["total_discount_amount"]) != 200 {
		t.Errorf("valid %v, order %v", res["valid"], res["order"])
	}
	// One exclusive code by default.
	wantStackOutcomes(t, f.validate(t, "X1", "X2"), map[string]string{"X1": "APPLICABLE:",
		"X2": "SKIPPED:applicable_exclusive_redeemables_limit_exceeded"})
	// Two exclusive codes, but one per exclusive category.
	must(t, f.e.DoJSON(http.MethodPut, f.base+"/"+created["id"].(string), map[string]any{"applicable_exclusive_redeemables_limit": 2}, f.mk), http.StatusOK)
	wantStackOutcomes(t, f.validate(t, "X1", "X2"), map[string]string{"X1": "APPLICABLE:",
		"X2": "SKIPPED:applicable_exclusive_redeemables_per_category_limit_exceeded"})
	// An exclusive code that cannot be used excludes nothing; INAPPLICABLE shows its categories.
	must(t, f.e.DoJSON(http.MethodPut, "/v1/vouchers/X1", map[string]any{"active": false}, f.app), http.StatusOK)
	must(t, f.e.DoJSON(http.MethodPut, f.base+"/"+created["id"].(string), map[string]any{"redeemables_application_mode": "PARTIAL"}, f.mk), http.StatusOK)
	res = f.validate(t, "A1", "X1")
	wantStackOutcomes(t, res, map[string]string{"A1": "APPLICABLE:", "X1": "INAPPLICABLE:voucher_disabled"})
	inapplicable := res["inapplicable_redeemables"].([]any)[0].(map[string]any)
	if cats, _ := inapplicable["categories"].([]any); len(cats) != 1 || cats[0].(map[string]any)["id"] != f.cats["X"] {
		t.Errorf("inapplicable categories = %v", inapplicable)
	}

	// Deleting a category removes it from the rules.
	if r := f.e.Do(http.MethodDelete, "/v1/categories/"+f.cats["J"], nil, f.app); r.Status != http.StatusNoContent {
		t.Fatalf("delete category: %d %s", r.Status, r.Body)
	}
	got := must(t, f.e.Do(http.MethodGet, f.base+"/"+created["id"].(string), nil, f.mk), http.StatusOK)
	if j := got["joint_categories"].([]any); len(j) != 0 || len(got["exclusive_categories"].([]any)) != 1 {
		t.Errorf("rules after delete = %v", got)
	}
}

func TestStackingCategoryHierarchyOrder(t *testing.T) {
	f := newStackingFixture(t)
	f.code(t, "PCT", "A", map[string]any{"type": "PERCENT", "percent_off": 10}) // hierarchy 2
	f.code(t, "AMT", "B", amountOff(1000))                                      // hierarchy 1
	f.code(t, "LAST", "", amountOff(100))                                       // no category: last
	// Requested order: 100, then 10 % of 5900, then 1000.
	res := f.validate(t, "LAST", "PCT", "AMT")
	if d := num(res["order"].(map[string]any)["total_discount_amount"]); d != 1690 {
		t.Errorf("requested order discount = %v, want 1690", d)
	}
	f.rules(t, map[string]any{"redeemables_sorting_rule": "CATEGORY_HIERARCHY"})
	// Hierarchy: AMT (1) then 10 % of 5000, then LAST: 1000 + 500 + 100; the list keeps the request's order.
	res = f.validate(t, "LAST", "PCT", "AMT")
	if d := num(res["order"].(map[string]any)["total_discount_amount"]); d != 1600 {
		t.Errorf("hierarchy order discount = %v, want 1600", d)
	}
	if ids := stackOutcomes(res); len(ids) != 3 || res["redeemables"].([]any)[0].(map[string]any)["id"] != "LAST" {
		t.Errorf("redeemables = %v", res["redeemables"])
	}
}

func TestStackingNoEffectCategories(t *testing.T) {
	f := newStackingFixture(t)
	f.code(t, "ALL", "", amountOff(6000))
	f.code(t, "A1", "A", amountOff(100))
	f.code(t, "B1", "B", amountOff(100))
	// Project rule REDEEM_ANYWAY, but SKIP for A.
	rules := f.rules(t, map[string]any{"no_effect_skip_categories": []string{f.cats["A"]}})
	wantStackOutcomes(t, f.validate(t, "ALL", "A1", "B1"), map[string]string{"ALL": "APPLICABLE:", "A1": "SKIPPED:no_effect", "B1": "APPLICABLE:"})
	// Project rule SKIP, but REDEEM_ANYWAY for B.
	must(t, f.e.DoJSON(http.MethodPut, f.base+"/"+rules["id"].(string), map[string]any{"redeemables_no_effect_rule": "SKIP",
		"no_effect_skip_categories": []string{}, "no_effect_redeem_anyway_categories": []string{f.cats["B"]}}, f.mk), http.StatusOK)
	wantStackOutcomes(t, f.validate(t, "ALL", "A1", "B1"), map[string]string{"ALL": "APPLICABLE:", "A1": "SKIPPED:no_effect", "B1": "APPLICABLE:"})
	f.code(t, "NONE", "", amountOff(100))
	wantStackOutcomes(t, f.validate(t, "ALL", "NONE", "B1"), map[string]string{"NONE": "SKIPPED:no_effect", "B1": "APPLICABLE:"})
	// A category in both lists is refused.
	wantErrorKey(t, f.e.DoJSON(http.MethodPut, f.base+"/"+rules["id"].(string), map[string]any{
		"no_effect_skip_categories": []string{f.cats["B"]}}, f.mk), http.StatusBadRequest, "invalid_payload")
}

func TestStackingCategoriesRedemption(t *testing.T) {
	f := newStackingFixture(t)
	f.code(t, "A1", "A", amountOff(100))
	f.code(t, "A2", "A", amountOff(100))
	f.code(t, "X1", "X", amountOff(300))
	f.code(t, "B1", "B", amountOff(100))
	f.rules(t, map[string]any{"redeemables_application_mode": "PARTIAL", "exclusive_categories": []string{f.cats["X"]}})
	redeem := func(codes ...string) map[string]any {
		return must(t, f.e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": redeemables(codes...),
			"order": cart(), "customer": map[string]any{"source_id": "carol"}}, f.app), http.StatusOK)
	}
	red := redeem("A1", "A2", "B1")
	if n := len(red["redemptions"].([]any)); n != 2 || num(red["order"].(map[string]any)["total_discount_amount"]) != 200 {
		t.Errorf("redemptions %d, order %v", n, red["order"])
	}
	wantStackOutcomes(t, red, map[string]string{"A2": "SKIPPED:applicable_redeemables_per_category_limit_exceeded"})
	red = redeem("B1", "X1")
	if n := len(red["redemptions"].([]any)); n != 1 || num(red["order"].(map[string]any)["total_discount_amount"]) != 300 {
		t.Errorf("exclusive redemptions %d, order %v", n, red["order"])
	}
	wantStackOutcomes(t, red, map[string]string{"B1": "SKIPPED:exclusion_rules_not_met"})
	for _, code := range []string{"A2", "B1"} {
		v := must(t, f.e.Do(http.MethodGet, "/v1/vouchers/"+code, nil, f.app), http.StatusOK)
		if want := map[string]float64{"A2": 0, "B1": 1}[code]; num(v["redemption"].(map[string]any)["redeemed_quantity"]) != want {
			t.Errorf("%s redeemed %v times, want %v", code, v["redemption"], want)
		}
	}
}

func TestStackingRulesCategoryValidation(t *testing.T) {
	f := newStackingFixture(t)
	for name, body := range map[string]map[string]any{
		"exclusive and joint":  {"exclusive_categories": []string{f.cats["A"]}, "joint_categories": []string{f.cats["A"]}},
		"limit not a number":   {"applicable_redeemables_category_limits": map[string]any{f.cats["A"]: "two"}},
		"limit above 30":       {"applicable_redeemables_category_limits": map[string]any{f.cats["A"]: 31}},
		"exclusive limit 0":    {"applicable_exclusive_redeemables_limit": 0},
		"exclusive per-cat 6":  {"applicable_exclusive_redeemables_per_category_limit": 6},
		"per-category limit 0": {"applicable_redeemables_per_category_limit": 0},
	} {
		if r := f.e.DoJSON(http.MethodPost, f.base, body, f.mk); r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	nf := wantErrorKey(t, f.e.DoJSON(http.MethodPost, f.base, map[string]any{
		"applicable_redeemables_category_limits": map[string]any{"cat_000000000000000000": 2}}, f.mk), http.StatusNotFound, "not_found")
	if nf["resource_type"] != "category" || nf["resource_id"] != "cat_000000000000000000" {
		t.Errorf("404 = %v", nf)
	}
	// Another project's category is not found either.
	other := resttest.App(f.e.NewProject("other"))
	foreign := createCategory(t, f.e, other, "Theirs", 1)["id"].(string)
	wantErrorKey(t, f.e.DoJSON(http.MethodPost, f.base, map[string]any{"joint_categories": []string{foreign}}, f.mk),
		http.StatusNotFound, "not_found")
	if l := must(t, f.e.Do(http.MethodGet, f.base, nil, f.mk), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("refused rules were stored: %v", l)
	}
}
