package vouchers_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestVoucherTransactionListPages(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.GiftCard(t, e, app, "Gift cards", "GIFT-T", 10000)
	for i, amount := range []int{100, 200, -50} {
		resttest.Must(t, resttest.VoucherBalance(t, e, app, "GIFT-T", map[string]any{"amount": amount, "source_id": []string{"a", "b", "c"}[i]}), http.StatusOK)
	}
	first := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-T/transactions?limit=2", nil, app), http.StatusOK)
	data := first["data"].([]any)
	if first["object"] != "list" || first["data_ref"] != "data" || first["has_more"] != true || len(data) != 2 ||
		data[0].(map[string]any)["source_id"] != "c" || data[0].(map[string]any)["type"] != "CREDITS_REMOVAL" {
		t.Fatalf("first page = %s", resttest.MustJSON(first))
	}
	next := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-T/transactions?limit=2&starting_after_id="+first["more_starting_after"].(string), nil, app), http.StatusOK)
	if next["has_more"] != false || len(next["data"].([]any)) != 1 || next["data"].([]any)[0].(map[string]any)["source_id"] != "a" {
		t.Errorf("second page = %s", resttest.MustJSON(next))
	}
	asc := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-T/transactions?order=created_at", nil, app), http.StatusOK)
	if asc["data"].([]any)[0].(map[string]any)["source_id"] != "a" {
		t.Errorf("ascending = %s", resttest.MustJSON(asc))
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-T/transactions?order=amount", nil, app), http.StatusBadRequest, "invalid_query_params", "order")
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/vouchers/NOPE/transactions", nil, app), http.StatusNotFound, "not_found", "")
	cmpTx := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Gift%20cards/transactions?limit=10", nil, app), http.StatusOK)
	if len(cmpTx["data"].([]any)) != 3 || cmpTx["has_more"] != false {
		t.Errorf("campaign transactions = %s", resttest.MustJSON(cmpTx))
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns/Nope/transactions", nil, app), http.StatusNotFound, "not_found", "")
	gql := e.GraphQL(app, `{ voucherTransactionList(codeOrID: "GIFT-T", limit: 1) { hasMore data { sourceID type } } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["voucherTransactionList"].(map[string]any)["hasMore"] != true {
		t.Errorf("voucherTransactionList = %+v", gql)
	}
}
