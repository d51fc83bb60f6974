package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func activityTypes(list map[string]any) string {
	var types []string
	for _, a := range list["data"].([]any) {
		types = append(types, a.(map[string]any)["type"].(string))
	}
	return strings.Join(types, ",")
}

func TestCustomerActivitiesMergeWhatWasRecorded(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	defineEvent(t, e, app, "logged_in", map[string]any{})
	cust := must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "email": "ann@example.com"}, app), http.StatusOK)
	waitABit()
	discountCode(t, e, app, "Acts", "ACT-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	pub := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "ACT-1",
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	waitABit()
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "logged_in", "customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	waitABit()
	red := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/ACT-1/redemption", map[string]any{"customer": map[string]any{"source_id": "ann"},
		"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	waitABit()
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+red["id"].(string)+"/rollback", map[string]any{}, app), http.StatusOK)
	// Someone else's activity stays out.
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "logged_in", "customer": map[string]any{"source_id": "bob"}}, app), http.StatusOK)

	all := must(t, e.Do(http.MethodGet, "/v1/customers/ann/activities", nil, app), http.StatusOK)
	const newestFirst = "customer.redemption.rollback.succeeded,customer.redemption.succeeded,customer.custom_event," +
		"customer.publication.succeeded,customer.created"
	if all["object"] != "list" || all["data_ref"] != "data" || all["total"] != float64(5) || all["has_more"] != false ||
		activityTypes(all) != newestFirst {
		t.Fatalf("activities = %v", all)
	}
	data := all["data"].([]any)
	if p := data[3].(map[string]any); p["id"] != pub["id"] || !timestampRE.MatchString(p["created_at"].(string)) ||
		p["data"].(map[string]any)["publication"].(map[string]any)["vouchers"].([]any)[0].(map[string]any)["code"] != "ACT-1" {
		t.Errorf("publication activity = %v", p)
	}
	if r := data[1].(map[string]any); r["id"] != red["id"] || r["data"].(map[string]any)["redemption"].(map[string]any)["voucher"].(map[string]any)["code"] != "ACT-1" {
		t.Errorf("redemption activity = %v", r)
	}
	if c := data[4].(map[string]any); c["id"] != cust["id"] {
		t.Errorf("customer.created activity = %v", c)
	}

	// Pages of 2 by starting_after_id cover the list once, in order.
	var seen []string
	query := "/v1/customers/" + cust["id"].(string) + "/activities?limit=2"
	for next := query; ; {
		page := must(t, e.Do(http.MethodGet, next, nil, app), http.StatusOK)
		items := page["data"].([]any)
		for _, a := range items {
			seen = append(seen, a.(map[string]any)["type"].(string))
		}
		if page["has_more"] != true {
			break
		}
		next = query + "&starting_after_id=" + items[len(items)-1].(map[string]any)["id"].(string)
	}
	if strings.Join(seen, ",") != newestFirst {
		t.Errorf("paged activities = %v", seen)
	}
	asc := must(t, e.Do(http.MethodGet, "/v1/customers/ann/activities?order=created_at&limit=1", nil, app), http.StatusOK)
	if activityTypes(asc) != "customer.created" || asc["has_more"] != true || asc["total"] != float64(5) {
		t.Errorf("oldest first = %v", asc)
	}
	// Campaign filters keep the campaign's activities only.
	cmp := must(t, e.Do(http.MethodGet, "/v1/campaigns/Acts", nil, app), http.StatusOK)
	byCampaign := must(t, e.Do(http.MethodGet, "/v1/customers/ann/activities?campaign_id="+cmp["id"].(string), nil, app), http.StatusOK)
	if byCampaign["total"] != float64(3) || activityTypes(byCampaign) != "customer.redemption.rollback.succeeded,customer.redemption.succeeded,customer.publication.succeeded" {
		t.Errorf("campaign_id filter = %v", byCampaign)
	}
	if gifts := must(t, e.Do(http.MethodGet, "/v1/customers/ann/activities?campaign_type=GIFT_VOUCHERS", nil, app), http.StatusOK); gifts["total"] != float64(0) {
		t.Errorf("campaign_type=GIFT_VOUCHERS = %v", gifts)
	}
	if coupons := must(t, e.Do(http.MethodGet, "/v1/customers/ann/activities?campaign_type=DISCOUNT_COUPONS", nil, app), http.StatusOK); coupons["total"] != float64(3) {
		t.Errorf("campaign_type=DISCOUNT_COUPONS = %v", coupons["total"])
	}
	for _, q := range []string{"order=type", "limit=0", "campaign_type=COUPONS", "starting_after_id=cev_unknown"} {
		wantError(t, e.Do(http.MethodGet, "/v1/customers/ann/activities?"+q, nil, app), http.StatusBadRequest, "invalid_query_params", "")
	}
	wantError(t, e.Do(http.MethodGet, "/v1/customers/nobody/activities", nil, app), http.StatusNotFound, "not_found", "nobody")
	wantError(t, e.Do(http.MethodGet, "/v1/customers/ann/activities", nil, resttest.App(e.NewProject("other"))),
		http.StatusNotFound, "not_found", "ann")

	gql := e.GraphQL(app, `{ customerActivityList(idOrSourceID: "ann", input: {limit: 2}) { total hasMore data { type } } }`, nil)
	if len(gql.Errors) > 0 || mustJSON(gql.Data) != `{"customerActivityList":{"data":[{"type":"customer.redemption.rollback.succeeded"},`+
		`{"type":"customer.redemption.succeeded"}],"hasMore":true,"total":5}}` {
		t.Errorf("customerActivityList = %s %+v", mustJSON(gql.Data), gql.Errors)
	}
}
