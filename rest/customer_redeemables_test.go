package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCustomerRedeemables: the wallet lists what was published to the
// customer (a discount code and a gift card), pages by starting_after_id,
// filters, and stays inside the project.
func TestCustomerRedeemables(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Codes", "C-1", "C-2", "C-3")
	giftCard(t, e, app, "Gifts", "G-1", 5000)
	for _, v := range []string{"C-1", "C-3", "G-1"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "erin"},
			"voucher": v}, app), http.StatusOK)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "frank"},
		"voucher": "C-2"}, app), http.StatusOK)

	l := must(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables", nil, app), http.StatusOK)
	data := l["data"].([]any)
	if l["object"] != "list" || l["total"] != float64(3) || l["has_more"] != false || len(data) != 3 {
		t.Fatalf("wallet %v", l)
	}
	codes := map[string]bool{}
	for _, it := range data {
		m := it.(map[string]any)
		red := m["redeemable"].(map[string]any)
		codes[red["voucher"].(map[string]any)["code"].(string)] = true
		if !strings.HasPrefix(m["id"].(string), "rh_") || m["holder_role"] != "OWNER" || red["status"] != "ACTIVE" ||
			m["redeemable_object"] != "voucher" || m["campaign_id"] == nil {
			t.Errorf("entry %v", m)
		}
	}
	if !codes["C-1"] || !codes["C-3"] || !codes["G-1"] || codes["C-2"] {
		t.Errorf("codes %v", codes)
	}
	// Paging: limit 2, then after the last.
	p1 := must(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables?limit=2", nil, app), http.StatusOK)
	if p1["has_more"] != true || len(p1["data"].([]any)) != 2 || p1["more_starting_after"] == nil {
		t.Fatalf("page 1 %v", p1)
	}
	p2 := must(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables?limit=2&starting_after_id="+p1["more_starting_after"].(string), nil, app), http.StatusOK)
	if p2["has_more"] != false || len(p2["data"].([]any)) != 1 {
		t.Errorf("page 2 %v", p2)
	}
	// Filters.
	gifts := must(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables?filters[voucher_type][conditions][$in]=GIFT_VOUCHER", nil, app), http.StatusOK)
	if gifts["total"] != float64(1) || gifts["data"].([]any)[0].(map[string]any)["voucher_type"] != "GIFT_VOUCHER" {
		t.Errorf("gift filter %v", gifts)
	}
	notGift := must(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables?filters[voucher_type][conditions][$is_not]=GIFT_VOUCHER&order=-id", nil, app), http.StatusOK)
	if notGift["total"] != float64(2) {
		t.Errorf("not-gift filter %v", notGift)
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables?filters[colour][conditions][$is]=x", nil, app),
		http.StatusBadRequest, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables?order=code", nil, app), http.StatusBadRequest, "invalid_query_params")
	wantNotFound(t, e.Do(http.MethodGet, "/v1/customers/nobody/redeemables", nil, app), "customer", "nobody")

	// Another project sees no such customer.
	other := resttest.App(e.NewProject("other"))
	must(t, e.Do(http.MethodGet, "/v1/customers/erin/redeemables", nil, other), http.StatusNotFound)

	// GraphQL calls the same use case.
	r := e.GraphQL(app, `{ customerRedeemables(id: "erin", input: {limit: 1}) { total hasMore data { id status voucher { code } } } }`, nil)
	if len(r.Errors) > 0 || r.Data["customerRedeemables"].(map[string]any)["total"] != float64(3) {
		t.Errorf("graphql %v %v", r.Data, r.Errors)
	}
}
