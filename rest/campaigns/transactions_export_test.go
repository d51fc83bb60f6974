package campaigns_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCampaignTransactionsExport: POST /v1/campaigns/{id}/transactions/export
// makes a voucher_transactions export filtered to the campaign, with no
// order it was not sent; an unknown campaign is a 404 and a bad order a 400.
func TestCampaignTransactionsExport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Gifts",
		"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}}, app), http.StatusOK)
	cid := cmp["id"].(string)
	exp := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Gifts/transactions/export", map[string]any{}, app), http.StatusOK)
	params := exp["parameters"].(map[string]any)
	in := params["filters"].(map[string]any)["campaign_id"].(map[string]any)["conditions"].(map[string]any)["$in"].([]any)
	if exp["exported_object"] != "voucher_transactions" || exp["object"] != "export" || len(in) != 1 || in[0] != cid {
		t.Fatalf("export: %v", exp)
	}
	if _, has := params["order"]; has {
		t.Errorf("parameters show an order the request did not send: %v", params)
	}
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/campaigns/camp_nope/transactions/export", map[string]any{}, app), "campaign", "camp_nope")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+cid+"/transactions/export",
		map[string]any{"parameters": map[string]any{"order": "amount"}}, app), http.StatusBadRequest, "invalid_payload")
}
