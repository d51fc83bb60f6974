package rest_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// GET /v1/publications/create publishes from a link: the same publication
// as POST /v1/publications, its request written as a bracketed query.
func TestPublishFromQueryString(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Link Promo", "L1", "L2")
	q := url.Values{"campaign[name]": {"Link Promo"}, "customer[source_id]": {"linda"},
		"customer[email]": {"linda@example.com"}, "customer[metadata][zip]": {"02134"},
		"metadata[year]": {"2022"}, "source_id": {"mail-7"}, "channel": {"newsletter"}}
	first := must(t, e.Do(http.MethodGet, "/v1/publications/create?"+q.Encode(), nil, app), http.StatusOK)
	if first["object"] != "publication" || first["result"] != "SUCCESS" || first["source_id"] != "mail-7" ||
		first["channel"] != "newsletter" || first["metadata"].(map[string]any)["year"] != "2022" {
		t.Fatalf("publication = %v", first)
	}
	code := first["voucher"].(map[string]any)["code"]
	if code != "L1" && code != "L2" {
		t.Errorf("voucher = %v", first["voucher"])
	}
	cust := must(t, e.Do(http.MethodGet, "/v1/customers/linda", nil, app), http.StatusOK)
	if cust["email"] != "linda@example.com" || cust["metadata"].(map[string]any)["zip"] != "02134" {
		t.Errorf("customer = %v", cust)
	}
	// The same source_id is the same publication (a link clicked twice).
	again := must(t, e.Do(http.MethodGet, "/v1/publications/create?"+q.Encode(), nil, app), http.StatusOK)
	if again["id"] != first["id"] {
		t.Errorf("second click = %v, want %v", again["id"], first["id"])
	}
	// join_once in the query: one code per customer whatever the source.
	jo := url.Values{"campaign[name]": {"Link Promo"}, "customer[source_id]": {"linda"}, "join_once": {"true"}}
	joined := must(t, e.Do(http.MethodGet, "/v1/publications/create?"+jo.Encode(), nil, app), http.StatusOK)
	if joined["voucher"].(map[string]any)["code"] != code {
		t.Errorf("join_once gave %v, want %v", joined["voucher"], code)
	}

	// Bad requests get the error object and publish nothing.
	for _, bad := range []string{
		"campaign[name]=Link+Promo", // no customer
		"customer[source_id]=x",     // neither voucher nor campaign
		"campaign[name]=Link+Promo&customer[source_id]=x&join_once=maybe",
		"campaign[name][a][b][c][d][e]=1&customer[source_id]=x", // too deep
	} {
		res := e.Do(http.MethodGet, "/v1/publications/create?"+bad, nil, app)
		if res.Status != http.StatusBadRequest || res.JSON(t)["code"] != float64(400) {
			t.Errorf("%s: %d %s", bad, res.Status, res.Body)
		}
	}
	list := must(t, e.Do(http.MethodGet, "/v1/publications?campaign=Link+Promo", nil, app), http.StatusOK)
	if list["total"] != float64(1) {
		t.Errorf("publications after bad requests = %v", list["total"])
	}
}
