package rest_test

import (
	"net/http"
	"testing"

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
