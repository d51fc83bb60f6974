package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestRedemptionRuleNamesEnforced: the rule names once accepted without
// being enforced decide a validation (gift credits, a voucher linked to
// the customer) or are refused when the rule is created.
func TestRedemptionRuleNamesEnforced(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	valid := func(redeemable map[string]any, customer string) any {
		body := map[string]any{"redeemables": []any{redeemable}, "order": map[string]any{"amount": 10000}}
		if customer != "" {
			body["customer"] = map[string]any{"source_id": customer}
		}
		return must(t, e.DoJSON(http.MethodPost, "/v1/validations", body, app), http.StatusOK)["valid"]
	}

	// redemption.gift.amount: the credits the gift card gives.
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "GIFTY", "type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 5000}}, app), http.StatusOK)
	cartRule(t, e, app, map[string]any{"rules": map[string]any{"1": map[string]any{"name": "redemption.gift.amount",
		"conditions": map[string]any{"$less_than_or_equal": []any{1000}}}, "logic": "1"}}, map[string]any{"voucher": "GIFTY"})
	gift := func(credits int) map[string]any {
		return map[string]any{"object": "voucher", "id": "GIFTY", "gift": map[string]any{"credits": credits}}
	}
	if valid(gift(500), "") != true || valid(gift(1500), "") != false {
		t.Errorf("gift.amount ≤ 1000: 500 credits valid %v, 1500 valid %v", valid(gift(500), ""), valid(gift(1500), ""))
	}

	// publication.redeemable_by_linked_customer: only the customer it was published to.
	discountCode(t, e, app, "Linked", "LINKED", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Linked"},
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, app), http.StatusOK)
	cartRule(t, e, app, map[string]any{"rules": map[string]any{"1": map[string]any{"name": "publication.redeemable_by_linked_customer",
		"conditions": map[string]any{"$is": []any{"true"}}}, "logic": "1"}}, map[string]any{"voucher": "LINKED"})
	code := map[string]any{"object": "voucher", "id": "LINKED"}
	if valid(code, "ann") != true || valid(code, "bob") != false || valid(code, "") != false {
		t.Errorf("linked customer: ann %v, bob %v, nobody %v (want true, false, false)", valid(code, "ann"), valid(code, "bob"), valid(code, ""))
	}

	// Refused names write nothing.
	for _, name := range []string{"redemption.user.login", "redemption.count.per_user", "product.discount_applicable"} {
		r := e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "refused", "rules": map[string]any{
			"1": map[string]any{"name": name, "conditions": map[string]any{"$is": []any{1}}}, "logic": "1"}}, app)
		wantErrorKey(t, r, http.StatusBadRequest, "invalid_payload")
	}
	list := must(t, e.Do(http.MethodGet, "/v1/validation-rules?limit=100", nil, app), http.StatusOK)
	for _, x := range list["data"].([]any) {
		if x.(map[string]any)["name"] == "refused" {
			t.Errorf("a refused rule was stored: %s", mustJSON(x))
		}
	}
}
