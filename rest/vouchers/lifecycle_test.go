package vouchers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestVoucherUpdateEnableDisableDelete(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DiscountCode(t, e, app, "Winter", "WIN-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, 3)
	resttest.DiscountCode(t, e, app, "Winter2", "WIN-2", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/WIN-1/redemption", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)

	up := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/WIN-1", map[string]any{
		"metadata": map[string]any{"shelf": "A"}, "additional_info": "printed", "expiration_date": "2031-01-01T00:00:00Z",
		"redemption": map[string]any{"quantity": 5},
	}, app), http.StatusOK)
	red := up["redemption"].(map[string]any)
	if resttest.MustJSON(up["metadata"]) != `{"shelf":"A"}` || up["additional_info"] != "printed" || up["expiration_date"] != "2031-01-01T00:00:00.000Z" ||
		red["quantity"] != float64(5) || red["redeemed_quantity"] != float64(1) || up["code"] != "WIN-1" {
		t.Errorf("updated voucher = %v", up)
	}
	resttest.WantError(t, e.DoJSON(http.MethodPut, "/v1/vouchers/WIN-1", map[string]any{"redemption": map[string]any{"quantity": 0}}, app),
		http.StatusBadRequest, "invalid_payload", "redemption.quantity")
	resttest.WantError(t, e.DoJSON(http.MethodPut, "/v1/vouchers/WIN-1", map[string]any{"start_date": "2032-01-01T00:00:00Z"}, app),
		http.StatusBadRequest, "invalid_payload", "expiration_date")
	resttest.WantError(t, e.DoJSON(http.MethodPut, "/v1/vouchers/NOPE", map[string]any{"active": false}, app), http.StatusNotFound, "not_found", "")

	off := resttest.Must(t, e.Do(http.MethodPost, "/v1/vouchers/WIN-1/disable", nil, app), http.StatusOK)
	if off["active"] != false {
		t.Errorf("disabled voucher = %v", off)
	}
	v := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/WIN-1/validate", map[string]any{}, app), http.StatusOK)
	if v["valid"] != false || v["error"].(map[string]any)["key"] != "voucher_disabled" {
		t.Errorf("validation of a disabled voucher = %v", v)
	}
	if on := resttest.Must(t, e.Do(http.MethodPost, "/v1/vouchers/WIN-1/enable", nil, app), http.StatusOK); on["active"] != true {
		t.Errorf("enabled voucher = %v", on)
	}
	gql := e.GraphQL(app, `mutation { disableVoucher(codeOrID: "WIN-2") { active } updateVoucher(codeOrID: "WIN-2", input: {additionalInfo: "gql"}) { additionalInfo active } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["updateVoucher"].(map[string]any)["additionalInfo"] != "gql" || gql.Data["updateVoucher"].(map[string]any)["active"] != false {
		t.Errorf("GraphQL voucher lifecycle = %+v", gql)
	}

	// Delete: the voucher, its redemptions go; the campaign's count drops.
	del := e.Do(http.MethodDelete, "/v1/vouchers/WIN-1?force=true", nil, app)
	if del.Status != http.StatusNoContent || len(del.Body) != 0 {
		t.Fatalf("DELETE voucher: %d %s", del.Status, del.Body)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/vouchers/WIN-1", nil, app), http.StatusNotFound, "not_found", "")
	if h := resttest.MustJSON(resttest.Must(t, e.Do(http.MethodGet, "/v1/redemptions", nil, app), http.StatusOK)); strings.Contains(h, "WIN-1") {
		t.Errorf("redemptions of a deleted voucher remain: %s", h)
	}
	if cmp := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Winter", nil, app), http.StatusOK); cmp["vouchers_count"] != float64(0) {
		t.Errorf("campaign after its voucher's deletion = %v", cmp["vouchers_count"])
	}
	resttest.WantError(t, e.Do(http.MethodDelete, "/v1/vouchers/WIN-1", nil, app), http.StatusNotFound, "not_found", "")
	gdel := e.GraphQL(app, `mutation { deleteVoucher(codeOrID: "WIN-2") }`, nil)
	if len(gdel.Errors) > 0 || !strings.HasPrefix(gdel.Data["deleteVoucher"].(string), "v_") {
		t.Errorf("GraphQL deleteVoucher = %+v", gdel)
	}
	// Another project's voucher is not found, let alone deleted.
	other := e.NewProject("other")
	resttest.DiscountCode(t, e, resttest.App(other), "Theirs", "THEIRS-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	resttest.WantError(t, e.Do(http.MethodDelete, "/v1/vouchers/THEIRS-1", nil, app), http.StatusNotFound, "not_found", "")
	resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/THEIRS-1", nil, resttest.App(other)), http.StatusOK)
}

func TestAddCertainVoucher(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Chosen", "type": "STATIC"}, app), http.StatusOK)
	v := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Chosen/vouchers/MY%20CODE", map[string]any{"metadata": map[string]any{"a": 1}}, app), http.StatusOK)
	if v["code"] != "MY CODE" || v["campaign"] != "Chosen" || resttest.MustJSON(v["metadata"]) != `{"a":1}` {
		t.Errorf("added voucher = %v", v)
	}
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Chosen/vouchers/MY%20CODE", map[string]any{}, app), http.StatusBadRequest, "duplicate_key", "already exist")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Chosen/vouchers/A", map[string]any{"code": "B"}, app), http.StatusBadRequest, "invalid_payload", "code")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Nope/vouchers/A", map[string]any{}, app), http.StatusNotFound, "not_found", "")
}

func TestStandaloneVouchers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	gift := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT%20ME", map[string]any{"type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 2500}, "metadata": map[string]any{"src": "api"}}, app), http.StatusOK)
	if gift["code"] != "GIFT ME" || gift["campaign"] != nil || gift["campaign_id"] != nil || gift["type"] != "GIFT_VOUCHER" ||
		gift["gift"].(map[string]any)["balance"] != float64(2500) {
		t.Errorf("standalone gift card = %v", gift)
	}
	gen := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"discount": map[string]any{"type": "PERCENT", "percent_off": 10},
		"code_config": map[string]any{"pattern": "SOLO-####"}, "redemption": map[string]any{"quantity": 1}}, app), http.StatusOK)
	code := gen["code"].(string)
	if !strings.HasPrefix(code, "SOLO-") || len(code) != 9 || gen["type"] != "DISCOUNT_VOUCHER" {
		t.Errorf("generated standalone voucher = %v", gen)
	}
	// It validates, redeems and is found like any other voucher.
	r := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	if r["result"] != "SUCCESS" || num(r["order"].(map[string]any)["total_discount_amount"]) != 100 {
		t.Errorf("redemption of a standalone voucher = %v", r)
	}
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT%20ME", map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1}}, app),
		http.StatusBadRequest, "duplicate_key", "")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"type": "GIFT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}, app),
		http.StatusBadRequest, "invalid_payload", "discount")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/A", map[string]any{"code": "B"}, app), http.StatusBadRequest, "invalid_payload", "code")
	gql := e.GraphQL(app, `mutation { createVoucher(input: {code: "GQL-SOLO", discount: {type: AMOUNT, amountOff: 300}}) { code campaignID } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["createVoucher"].(map[string]any)["code"] != "GQL-SOLO" {
		t.Errorf("createVoucher = %+v", gql)
	}
}
