package campaigns_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// campaignFilterFixture creates, oldest first: Disc (discount coupons,
// STATIC, category Summer), Gifts (AUTO_UPDATE, starts in 2090), Points
// (loyalty, disabled), Refer (referral program, ended in 2020, category
// Winter) and Promo (a promotion: no codes; AUTO_UPDATE). It answers each campaign's
// id and created_at.
func campaignFilterFixture(t *testing.T, e *resttest.Env, app resttest.Headers) (ids, created []string) {
	t.Helper()
	discount := map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}
	for _, body := range []map[string]any{
		{"name": "Disc", "campaign_type": "DISCOUNT_COUPONS", "type": "STATIC", "category": "Summer", "voucher": discount},
		{"name": "Gifts", "campaign_type": "GIFT_VOUCHERS", "type": "AUTO_UPDATE", "start_date": "2090-01-01T00:00:00Z",
			"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}},
		{"name": "Points", "campaign_type": "LOYALTY_PROGRAM", "type": "STATIC",
			"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 100}}},
		{"name": "Refer", "campaign_type": "REFERRAL_PROGRAM", "type": "STATIC", "category": "Winter",
			"start_date": "2019-01-01T00:00:00Z", "expiration_date": "2020-01-01T00:00:00Z",
			"referral_program": map[string]any{"conversion_event_type": "redemption"}, "voucher": discount},
		{"name": "Promo", "campaign_type": "PROMOTION", "promotion": map[string]any{"tiers": []any{map[string]any{"name": "Ten",
			"action": map[string]any{"discount": map[string]any{"type": "PERCENT", "percent_off": 10}}}}}},
	} {
		c := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", body, app), http.StatusOK)
		ids, created = append(ids, c["id"].(string)), append(created, c["created_at"].(string))
		resttest.WaitABit() // distinct created_at
	}
	resttest.Must(t, e.Do(http.MethodPost, "/v1/campaigns/Points/disable", nil, app), http.StatusOK)
	return ids, created
}

// listedCampaigns is a page of GET /v1/campaigns?query (checked against
// the reference document): the campaigns' names and the total.
func listedCampaigns(t *testing.T, e *resttest.Env, app resttest.Headers, query string) (names []string, total int) {
	t.Helper()
	page := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns?"+query, nil, app), http.StatusOK)
	return campaignNames(t, page), int(page["total"].(float64))
}

// TestCampaignListFilterObject: every honoured filters[…] field of
// GET /v1/campaigns keeps what it names and nothing else, alone, together
// (junction and, or), with the list's other parameters and across pages;
// what the list cannot honour is a 400 naming it.
func TestCampaignListFilterObject(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	ids, created := campaignFilterFixture(t, e, app)
	other := resttest.App(e.NewProject("other")) // never listed
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Disc"}, other), http.StatusOK)

	all := []string{"Promo", "Refer", "Points", "Gifts", "Disc"}
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(drop, s) })
	}
	cond := resttest.FilterQuery
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", all},
		{cond("campaigns", "$is", "Disc"), []string{"Disc"}},
		{cond("campaigns", "$in", "Disc", "Gifts", "Nope"), []string{"Gifts", "Disc"}},
		{cond("campaigns", "$starts_with", "P"), []string{"Promo", "Points"}},
		{cond("campaigns", "$not_in", "Disc", "Promo"), []string{"Refer", "Points", "Gifts"}},
		{cond("campaigns_id", "$is", ids[1]), []string{"Gifts"}},
		{cond("campaigns_id", "$is_not", ids[1]), without("Gifts")},
		{cond("campaign_status", "$is", "DONE"), all},
		{cond("campaign_status", "$in", "DRAFT", "FAILED"), nil},
		{cond("campaign_status", "$not_in", "DRAFT"), all},
		{cond("is_referral_code", "$is", "TRUE"), []string{"Refer"}},
		{cond("is_referral_code", "$is", "false"), without("Refer")},
		{cond("is_referral_code", "$is_not", "TRUE"), without("Refer")},
		{cond("voucher_type", "$is", "DISCOUNT_VOUCHER"), []string{"Refer", "Disc"}},
		{cond("voucher_type", "$in", "GIFT_VOUCHER", "LOYALTY_CARD"), []string{"Points", "Gifts"}},
		{cond("voucher_type", "$not_in", "DISCOUNT_VOUCHER"), []string{"Promo", "Points", "Gifts"}},
		{cond("voucher_type", "$is_unknown"), []string{"Promo"}},
		{cond("voucher_type", "$has_value"), without("Promo")},
		{cond("categories", "$is", "Summer"), []string{"Disc"}},
		{cond("categories", "$in", "Summer", "Winter"), []string{"Refer", "Disc"}},
		{cond("categories", "$is_not", "Summer"), without("Disc")}, // no category is not Summer
		{cond("categories", "$is_unknown"), []string{"Promo", "Points", "Gifts"}},
		{cond("categories", "$has_value"), []string{"Refer", "Disc"}},
		{cond("category_ids", "$has_value"), []string{"Refer", "Disc"}},
		{cond("type", "$in", "AUTO_UPDATE"), []string{"Promo", "Gifts"}}, // a promotion is AUTO_UPDATE here
		{cond("type", "$in", "STATIC", "STANDALONE"), []string{"Refer", "Points", "Disc"}},
		{cond("type", "$not_in", "AUTO_UPDATE"), []string{"Refer", "Points", "Disc"}},
		{cond("type", "$in", "BULK"), all},
		{cond("type", "$not_in", "BULK"), nil},
		{cond("created_date", "$after", created[2]), []string{"Promo", "Refer"}},
		{cond("created_date", "$before", created[1]), []string{"Disc"}},
		{cond("created_date", "$less_than", "1"), all},         // created less than a day ago
		{cond("created_date", "$more_than", "1"), nil},         // none more than a day ago
		{cond("updated_at", "$has_value"), []string{"Points"}}, // only Points was changed since
		{cond("start_date", "$after", "2050-01-01T00:00:00Z"), []string{"Gifts"}},
		{cond("start_date", "$is_unknown"), []string{"Promo", "Points", "Disc"}},
		{cond("expiration_date", "$before", "2021-01-01"), []string{"Refer"}},
		{cond("active", "$enabled"), without("Points")},
		{cond("active", "$disabled"), []string{"Points"}},
		{cond("active", "$expired"), []string{"Refer"}},
		{cond("active", "$active"), []string{"Promo", "Disc"}}, // Gifts has not started, Refer ended, Points is off
		{cond("status", "$active"), all},
		{cond("status", "$failed"), nil},
		{cond("status", "$expired"), []string{"Refer"}},
		{cond("status", "before_start"), []string{"Gifts"}},
		{cond("campaigns", "$is", "Disc") + "&" + cond("active", "$disabled") + "&filters[junction]=or", []string{"Points", "Disc"}},
		{cond("campaigns", "$is", "Disc") + "&" + cond("active", "$disabled") + "&filters[junction]=AND", nil},
		{cond("campaigns", "$starts_with", "P") + "&" + cond("active", "$enabled"), []string{"Promo"}},
		{cond("voucher_type", "$has_value") + "&campaign_type=DISCOUNT_COUPONS", []string{"Disc"}},
		{cond("campaigns", "$is", "Refer") + "&" + cond("categories", "$is", "Summer") + "&filters[junction]=or&is_referral_code=false",
			[]string{"Disc"}}, // the parameters and the filters object are ANDed
	} {
		got, total := listedCampaigns(t, e, app, tc.query+"&limit=100")
		if !slices.Equal(got, tc.want) || total != len(tc.want) {
			t.Errorf("?%s: %v (total %d), want %v", tc.query, got, total, tc.want)
		}
	}

	// Pages of a filtered list: the filter's total, each page its own
	// slice of the filtered list, in either order.
	codes := without("Promo")
	for pg := 1; pg <= 3; pg++ {
		got, total := listedCampaigns(t, e, app, cond("voucher_type", "$has_value")+"&limit=2&page="+strconv.Itoa(pg))
		want := codes[min(len(codes), (pg-1)*2):min(len(codes), pg*2)]
		if !slices.Equal(got, want) || total != len(codes) {
			t.Errorf("voucher_type $has_value page %d: %v (total %d), want %v (total %d)", pg, got, total, want, len(codes))
		}
	}
	got, total := listedCampaigns(t, e, app, cond("active", "$enabled")+"&order=created_at&limit=3&page=2")
	if !slices.Equal(got, []string{"Promo"}) || total != 4 {
		t.Errorf("active $enabled, oldest first, page 2 of 3: %v (total %d)", got, total)
	}

	for query, want := range map[string]string{
		cond("nope", "$is", "x"):                           "nope",
		cond("campaigns", "$after", "2024-01-01"):          "campaigns",
		cond("campaign_status", "$is", "DELETED"):          "campaign_status",
		cond("campaign_status", "$contains", "ON"):         "campaign_status",
		cond("is_referral_code", "$is", "maybe"):           "is_referral_code",
		cond("is_referral_code", "$in", "TRUE"):            "is_referral_code",
		cond("voucher_type", "$is", "COUPON"):              "voucher_type",
		cond("voucher_type", "$starts_with", "DISC"):       "voucher_type",
		cond("type", "$is", "STATIC"):                      "type",
		cond("type", "$in", "DYNAMIC"):                     "type",
		cond("active", "$on"):                              "active",
		cond("status", "$draft"):                           "status",
		cond("created_date", "$after", "yesterday"):        "created_date",
		cond("validity_day_of_week", "$is", "1"):           "validity_day_of_week",
		cond("validity_timeframe", "$after", "2024-01-01"): "validity_timeframe",
		"filters[junction]=xor":                            "junction",
		"filters[campaigns]=Disc":                          "campaigns",
		"access_settings[filter][areas_ids][]=ar_1":        "access_settings",
	} {
		resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns?"+query, nil, app), http.StatusBadRequest, "invalid_query_params", want)
	}

	// GraphQL's campaignList takes the same filters (one rule).
	gql := e.GraphQL(app, `query($f: Map) { campaignList(input: {campaignType: DISCOUNT_COUPONS, filters: $f}) { total data { name } } }`,
		map[string]any{"f": map[string]any{"categories": map[string]any{"conditions": map[string]any{"$has_value": ""}}}})
	if len(gql.Errors) > 0 || gql.Data["campaignList"].(map[string]any)["total"] != float64(1) {
		t.Errorf("campaignList(DISCOUNT_COUPONS, categories has a value) = %+v", gql)
	}
	gql = e.GraphQL(app, `query($f: Map) { campaignList(input: {filters: $f}) { total } }`,
		map[string]any{"f": map[string]any{"type": map[string]any{"conditions": map[string]any{"$is": "STATIC"}}}})
	if len(gql.Errors) == 0 || !strings.Contains(gql.Errors[0].Message, "filters[type]") {
		t.Errorf("campaignList(type $is STATIC) = %+v, want an error naming filters[type]", gql)
	}
}
