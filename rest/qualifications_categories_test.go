package rest_test

import (
	"net/http"
	"testing"
)

// TestCategoriesShowStackingRulesType: a redeemable's categories in a
// validation and a qualification carry stacking_rules_type EXCLUSIVE or
// JOINT when the project's stacking rules name the category among their
// exclusive_categories or joint_categories, and no such field otherwise;
// a campaign entry's category likewise.
func TestCategoriesShowStackingRulesType(t *testing.T) {
	f := newStackingFixture(t)
	f.code(t, "A1", "A", amountOff(100))
	f.code(t, "X1", "X", amountOff(100))
	f.code(t, "J1", "J", amountOff(100))
	must(t, f.e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Joint coupons", "campaign_type": "DISCOUNT_COUPONS",
		"type": "STATIC", "category_id": f.cats["J"], "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": amountOff(200)}}, f.app), http.StatusOK)
	must(t, f.e.DoJSON(http.MethodPost, "/v1/campaigns/Joint%20coupons/vouchers", map[string]any{"code": "JC-1"}, f.app), http.StatusOK)
	typeOf := func(what string, entry map[string]any) any {
		t.Helper()
		cats, _ := entry["categories"].([]any)
		if len(cats) != 1 {
			t.Fatalf("%s: categories %s", what, mustJSON(entry))
		}
		return cats[0].(map[string]any)["stacking_rules_type"]
	}
	want := map[string]any{"A1": nil, "X1": "EXCLUSIVE", "J1": "JOINT"}

	// Without stacking rules naming them, no type.
	for code := range want {
		if got := typeOf(code, f.validate(t, code)["redeemables"].([]any)[0].(map[string]any)); got != nil {
			t.Errorf("%s without rules: %v", code, got)
		}
	}
	f.rules(t, map[string]any{"exclusive_categories": []string{f.cats["X"]}, "joint_categories": []string{f.cats["J"]}})
	for code, w := range want {
		if got := typeOf(code, f.validate(t, code)["redeemables"].([]any)[0].(map[string]any)); got != w {
			t.Errorf("validation of %s: %v, want %v", code, got, w)
		}
	}
	res := must(t, f.e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": cart(),
		"options": map[string]any{"limit": 50}}, f.app), http.StatusOK)
	want["camp"] = "JOINT"
	seen := 0
	for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
		q := x.(map[string]any)
		id := q["id"].(string)
		if q["object"] == "campaign" {
			id = "camp"
		}
		w, ok := want[id]
		if !ok {
			t.Fatalf("unexpected entry %s", mustJSON(q))
		}
		seen++
		if got := typeOf(id, q); got != w {
			t.Errorf("qualification of %s: %v, want %v", id, got, w)
		}
	}
	if seen != 4 {
		t.Errorf("qualification: %s", mustJSON(res))
	}
}
