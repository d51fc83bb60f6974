package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestPublicationListAndAVouchersPublishURL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "PubA", "PA-1", "PA-2")
	staticCampaign(t, e, "PubB", "PB-1")
	for _, p := range []map[string]any{
		{"campaign": map[string]any{"name": "PubA"}, "customer": map[string]any{"source_id": "ann"}, "source_id": "first"},
		{"campaign": map[string]any{"name": "PubA"}, "customer": map[string]any{"source_id": "bob"}},
		{"voucher": "PB-1", "customer": map[string]any{"source_id": "ann"}},
	} {
		must(t, e.DoJSON(http.MethodPost, "/v1/publications", p, app), http.StatusOK)
		waitABit()
	}
	other := e.NewProject("other")

	all := must(t, e.Do(http.MethodGet, "/v1/publications", nil, app), http.StatusOK)
	pubs := all["publications"].([]any)
	if all["object"] != "list" || all["data_ref"] != "publications" || all["total"] != float64(3) || len(pubs) != 3 ||
		pubs[0].(map[string]any)["voucher"].(map[string]any)["code"] != "PB-1" {
		t.Fatalf("GET /v1/publications = %s", mustJSON(all))
	}
	for query, want := range map[string]float64{
		"campaign=PubA": 2, "customer=ann": 2, "voucher=PB-1": 1, "source_id=first": 1, "result=FAILURE": 0,
		"campaign=Nope": 0, "limit=1&page=3": 3,
	} {
		got := must(t, e.Do(http.MethodGet, "/v1/publications?"+query, nil, app), http.StatusOK)
		if got["total"] != want {
			t.Errorf("?%s total = %v, want %v", query, got["total"], want)
		}
	}
	wantError(t, e.Do(http.MethodGet, "/v1/publications?order=code", nil, app), http.StatusBadRequest, "invalid_query_params", "order")

	// A voucher's publish.url lists its publications.
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/PB-1", nil, app), http.StatusOK)
	url := v["publish"].(map[string]any)["url"].(string)
	byURL := must(t, e.Do(http.MethodGet, url, nil, app), http.StatusOK)
	if byURL["total"] != float64(1) || byURL["publications"].([]any)[0].(map[string]any)["customer"].(map[string]any)["source_id"] != "ann" {
		t.Errorf("GET %s = %s", url, mustJSON(byURL))
	}
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/NOPE/publications", nil, app), http.StatusNotFound, "not_found", "")

	// Tenancy and GraphQL.
	if got := must(t, e.Do(http.MethodGet, "/v1/publications", nil, resttest.App(other)), http.StatusOK); got["total"] != float64(0) {
		t.Errorf("another project sees publications: %v", got)
	}
	gql := e.GraphQL(app, `{ publicationList(input: {customer: "ann", order: "created_at"}) { total data { id } } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["publicationList"].(map[string]any)["total"] != float64(2) {
		t.Errorf("publicationList = %+v", gql)
	}
}

// TestListedPublicationsAsLoadedByEnt: a REST page of publications is one
// hand-built statement (publication.RESTPageInOneStatement); every page
// answers the bytes ent's loading of the same entities answers —
// customers with and without metadata and address, single and count
// forms, codes of a campaign with a category, of their own category, of a
// campaign that got one later, a code without a campaign, published codes
// deleted after, a deleted campaign, filters, orders and deep pages.
func TestListedPublicationsAsLoadedByEnt(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Sunny", "type": "STATIC", "category": "Sun",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10}}}, app), http.StatusOK)
	for _, code := range []string{"SUN-1", "SUN-2", "SUN-3", "SUN-4"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Sunny/vouchers", map[string]any{"code": code,
			"metadata": map[string]any{"k": "v \u2028 <&>"}}, app), http.StatusOK)
	}
	staticCampaign(t, e, "Later", "LATER-1", "LATER-2")
	must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Later", map[string]any{"category": "Snow"}, app), http.StatusOK)
	staticCampaign(t, e, "Gone", "GONE-1")
	staticCampaign(t, e, "Plain", "PLAIN-1", "PLAIN-2", "PLAIN-3", "PLAIN-4")
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/LONE-1", map[string]any{"type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 500}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann \u00e9", "email": "ann@example.com",
		"phone": "+48100", "address": map[string]any{"city": "Warsaw", "country": "PL"},
		"metadata": map[string]any{"tier": "gold", "n": 1.5, "big": 12345678901234567, "list": []any{"a", nil, true}}}, app), http.StatusOK)
	for _, p := range []map[string]any{
		{"campaign": map[string]any{"name": "Sunny"}, "customer": map[string]any{"source_id": "ann"}, "source_id": "first",
			"metadata": map[string]any{"channel": "mail", "nested": map[string]any{"z": 1, "a": []any{}}}},
		{"campaign": map[string]any{"name": "Sunny", "count": 2}, "customer": map[string]any{"source_id": "bob"}},
		{"voucher": "LATER-1", "customer": map[string]any{"source_id": "ann"}, "channel": "shop"},
		{"voucher": "GONE-1", "customer": map[string]any{"source_id": "cid"}},
		{"voucher": "LONE-1", "customer": map[string]any{"source_id": "bob"}},
		{"voucher": "PLAIN-4", "customer": map[string]any{"source_id": "eve"}},
		{"campaign": map[string]any{"name": "Plain", "count": 3}, "customer": map[string]any{"source_id": "dee"}},
	} {
		must(t, e.DoJSON(http.MethodPost, "/v1/publications", p, app), http.StatusOK)
		waitABit()
	}
	deleteCodeAndCampaign(t, e, app, "PLAIN-4", "Gone")
	if r := e.Do(http.MethodDelete, "/v1/vouchers/PLAIN-2", nil, app); r.Status != http.StatusNoContent { // one of dee's three, to the bin
		t.Fatalf("DELETE PLAIN-2: %d %s", r.Status, r.Body)
	}
	// (Publications of other projects are not listed.)
	other := resttest.App(e.NewProject("other"))
	discountCode(t, e, other, "Sunny", "O-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "O-1", "customer": map[string]any{"source_id": "ann"}}, other), http.StatusOK)

	get := func(q string) string { return checkedGet(t, e, app, "/v1/publications?"+q) }
	for _, q := range []string{"limit=100", "", "limit=2&page=2", "limit=1&page=4", "order=customer_id", "order=-id&limit=3&page=2",
		"order=customer_id&limit=2&page=2", "order=created_at&limit=2&page=2", "order=id&limit=1&page=3", "limit=2&page=50",
		"campaign=Sunny", "customer=ann", "voucher=SUN-1", "source_id=first", "result=SUCCESS&limit=2&page=3", "campaign=Nope"} {
		fast := get(q)
		publication.RESTPageInOneStatement = false
		loaded := get(q)
		publication.RESTPageInOneStatement = true
		if fast != loaded {
			t.Errorf("?%s: one statement answered\n%s\nent's loading\n%s", q, fast, loaded)
		}
	}
	var all struct {
		Publications []struct {
			Voucher  *struct{ Code string }
			Vouchers []string
		}
		Total int
	}
	if err := json.Unmarshal([]byte(get("limit=100")), &all); err != nil || len(all.Publications) != 7 || all.Total != 7 {
		t.Errorf("GET /v1/publications: %+v, %v", all, err)
	}
	// The deleted codes show as they were (PLAIN-4, GONE-1 with its
	// campaign, one of dee's three), every entry checked against the
	// reference (rawGet is not).
	for q, want := range map[string]string{"customer=eve": "PLAIN-4", "customer=cid": "GONE-1", "customer=dee": "PLAIN-1,PLAIN-2,PLAIN-3"} {
		p := must(t, e.Do(http.MethodGet, "/v1/publications?"+q, nil, app), http.StatusOK)["publications"].([]any)[0].(map[string]any)
		var codes []string
		if v, ok := p["voucher"].(map[string]any); ok {
			codes = append(codes, v["code"].(string))
		}
		vs, _ := p["vouchers"].([]any)
		for _, c := range vs {
			codes = append(codes, c.(string))
		}
		if slices.Sort(codes); strings.Join(codes, ",") != want {
			t.Errorf("?%s shows %v, want %s", q, codes, want)
		}
	}
}

// checkedGet answers GET path's body, checked against the reference
// OpenAPI documents as every e.Do is (a publication of a code without a
// campaign, or of a deleted code or campaign, included); anything but 200
// fails the test.
func checkedGet(t *testing.T, e *resttest.Env, h resttest.Headers, path string) string {
	t.Helper()
	r := e.Do(http.MethodGet, path, nil, h)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	return string(r.Body)
}
