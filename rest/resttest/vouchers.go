package resttest

import (
	"net/http"
	"net/url"
	"testing"
)

// The voucher fixtures (rest/vouchers' tests and rest's tests that set
// codes up for another area).

// DiscountCampaign creates a campaign whose codes follow pattern over
// charset (prefix P-, 15.00 off, 3 redemptions each); extra adds or
// overrides fields of the body.
func DiscountCampaign(t testing.TB, e *Env, name, pattern, charset string, extra map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{
		"name": name, "campaign_type": "DISCOUNT_COUPONS", "type": "STATIC",
		"voucher": map[string]any{
			"type":        "DISCOUNT_VOUCHER",
			"discount":    map[string]any{"type": "AMOUNT", "amount_off": 1500},
			"redemption":  map[string]any{"quantity": 3},
			"code_config": map[string]any{"pattern": pattern, "charset": charset, "prefix": "P-"},
		},
	}
	for k, v := range extra {
		body[k] = v
	}
	return CreateCampaign(t, e, body)
}

// AddVoucher is POST /v1/campaigns/{campaign}/vouchers with body, with
// the project's application keys.
func AddVoucher(t testing.TB, e *Env, campaign string, body any) Response {
	t.Helper()
	return e.DoJSON(http.MethodPost, "/v1/campaigns/"+url.PathEscape(campaign)+"/vouchers", body, App(e.Project))
}

// GiftCard makes a gift card campaign with one card of the given amount.
func GiftCard(t testing.TB, e *Env, h Headers, campaign, code string, amount int) map[string]any {
	t.Helper()
	Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": campaign, "campaign_type": "GIFT_VOUCHERS", "type": "STATIC",
		"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": amount}}}, h), http.StatusOK)
	return Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+url.PathEscape(campaign)+"/vouchers", map[string]any{"code": code}, h), http.StatusOK)
}
