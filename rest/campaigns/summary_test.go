package campaigns_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCampaignSummaryCountsWhatHappened(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DiscountCode(t, e, app, "Summed", "SUM-1", map[string]any{"type": "AMOUNT", "amount_off": 500}, 1)
	resttest.Must(t, addVoucher(t, e, "Summed", map[string]any{"code": "SUM-2"}), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Summed"},
		"customer": map[string]any{"source_id": "sum-customer"}}, app), http.StatusOK)
	ok := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/SUM-1/redemption", map[string]any{"order": map[string]any{"amount": 2000}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/SUM-1/redemption", map[string]any{"order": map[string]any{"amount": 3000}}, app), http.StatusBadRequest)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+ok["id"].(string)+"/rollback", map[string]any{"reason": "test"}, app), http.StatusOK)
	// Another campaign's redemption does not count.
	resttest.DiscountCode(t, e, app, "Other", "OTH-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/OTH-1/redemption", map[string]any{"order": map[string]any{"amount": 900}}, app), http.StatusOK)

	s := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Summed/summary", nil, app), http.StatusOK)
	want := map[string]float64{
		"redemptions": 2, "redemptions_succeeded": 1, "redemptions_failed": 1,
		"rollbacks": 1, "rollbacks_succeeded": 1, "rollbacks_failed": 0,
		"validations": 0, "validations_succeeded": 0, "validations_failed": 0,
		"vouchers_created": 2, "vouchers_deleted": 0, "publications": 1, "publications_succeeded": 1, "publications_failed": 0,
		"discounted_amount": 500, "rolledback_discounted_amount": 500, "orders_amount": 2000, "orders_rolledback_amount": 2000,
	}
	for k, w := range want {
		if got, present := s[k]; !present || got != w {
			t.Errorf("summary %s = %v (present %v), want %v", k, got, present, w)
		}
	}
	cmp, _ := s["campaign"].(map[string]any)
	if s["object"] != "campaign_summary" || cmp["name"] != "Summed" || len(cmp["categories"].([]any)) != 0 {
		t.Errorf("summary object/campaign = %v / %v", s["object"], cmp)
	}
	for _, k := range []string{"amount_redeemed", "points_added", "referred_customers"} {
		if _, present := s[k]; present {
			t.Errorf("discount campaign summary has %s", k)
		}
	}

	// A window after today holds nothing; a reversed one is refused.
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")
	later := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Summed/summary?start_date="+tomorrow, nil, app), http.StatusOK)
	if later["redemptions"] != float64(0) || later["vouchers_created"] != float64(0) || later["orders_amount"] != float64(0) {
		t.Errorf("summary from tomorrow = %v", later)
	}
	today := time.Now().UTC().Format("2006-01-02")
	if in := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Summed/summary?start_date="+today+"&end_date="+today, nil, app), http.StatusOK); in["redemptions"] != float64(2) {
		t.Errorf("summary of today = %v", in["redemptions"])
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns/Summed/summary?start_date="+tomorrow+"&end_date="+today, nil, app),
		http.StatusBadRequest, "invalid_query_params", "end_date")
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns/Nope/summary", nil, app), http.StatusNotFound, "not_found", "Nope")
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns/Summed/summary", nil, resttest.App(e.NewProject("other"))),
		http.StatusNotFound, "not_found", "Summed")

	// The same figures over GraphQL.
	gql := e.GraphQL(app, `{ campaignSummary(idOrName: "Summed") { redemptions redemptionsFailed rollbacks discountedAmount
		ordersAmount vouchersCreated publications gift { amountRedeemed } campaign { name } } }`, nil)
	if len(gql.Errors) > 0 || resttest.MustJSON(gql.Data) != `{"campaignSummary":{"campaign":{"name":"Summed"},"discountedAmount":500,`+
		`"gift":null,"ordersAmount":2000,"publications":1,"redemptions":2,"redemptionsFailed":1,"rollbacks":1,"vouchersCreated":2}}` {
		t.Errorf("campaignSummary = %s %+v", resttest.MustJSON(gql.Data), gql.Errors)
	}
}

func TestCampaignSummaryOfGiftCards(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Cards", "campaign_type": "GIFT_VOUCHERS", "type": "STATIC",
		"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 5000}}}, app), http.StatusOK)
	resttest.Must(t, addVoucher(t, e, "Cards", map[string]any{"code": "GIFT-1"}), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "GIFT-1", "gift": map[string]any{"credits": 1200}}},
		"order":       map[string]any{"amount": 3000}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-1/balance", map[string]any{"amount": 700}, app), http.StatusOK)

	s := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Cards/summary", nil, app), http.StatusOK)
	want := map[string]float64{"redemptions": 1, "created_vouchers_amount": 5000, "amount_redeemed": 1200, "amount_added": 700,
		"amount_subtracted": 0, "amount_rolledback": 0, "amount_deleted": 0, "vouchers_created": 1, "orders_amount": 3000}
	for k, w := range want {
		if got, present := s[k]; !present || got != w {
			t.Errorf("gift summary %s = %v (present %v), want %v", k, got, present, w)
		}
	}
	if _, present := s["discounted_amount"]; present {
		t.Errorf("gift summary has discounted_amount: %v", s)
	}
}
