package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestRedemptionsStayInTheirProject: another project can neither use a
// project's codes nor see or roll back its redemptions and rules.
func TestRedemptionsStayInTheirProject(t *testing.T) {
	e := resttest.New(t)
	a := resttest.App(e.Project)
	b := resttest.App(e.NewProject("B"))
	v := discountCode(t, e, a, "Mine", "MINE", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{map[string]any{"id": "MINE"}}}, a), http.StatusOK)
	parentID := red["parent_redemption"].(map[string]any)["id"].(string)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "r",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1}}}}}, a), http.StatusOK)

	got := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{map[string]any{"id": "MINE"}}}, b), http.StatusOK)
	if got["valid"] != false {
		t.Fatalf("project B validated A's code: %v", got)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/MINE/redemption", nil, b), http.StatusNotFound, "not_found", "MINE")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+v["id"].(string)+"/redemption", nil, b), http.StatusNotFound, "not_found", v["id"].(string))
	wantError(t, e.Do(http.MethodGet, "/v1/redemptions/"+parentID, nil, b), http.StatusNotFound, "not_found", parentID)
	wantError(t, e.Do(http.MethodPost, "/v1/redemptions/"+parentID+"/rollbacks", nil, b), http.StatusNotFound, "not_found", parentID)
	wantError(t, e.Do(http.MethodGet, "/v1/validation-rules/"+rule["id"].(string), nil, b), http.StatusNotFound, "not_found", rule["id"].(string))
	if list := must(t, e.Do(http.MethodGet, "/v1/redemptions", nil, b), http.StatusOK); num(list["total"]) != 0 {
		t.Fatalf("project B lists A's redemptions: %v", list)
	}
	// The same voucher named by its code and its ID is a duplicate, not two redemptions.
	wantError(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
		map[string]any{"id": "MINE"}, map[string]any{"id": v["id"]}}}, a), http.StatusBadRequest, "duplicated_redeemables", "MINE")
}
