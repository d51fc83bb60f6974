package rest_test

import (
	"bytes"
	"image/png"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// Tests of documented routes no other test exercised (docs/openapi.md,
// "How the tests use it"); each response is checked against the document.

// TestClientKeyLifecycle: a client-side key created through the
// management API authenticates the client API until blocked, again once
// unblocked, and never after it is deleted; its name can change.
func TestClientKeyLifecycle(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	discountCode(t, e, resttest.App(e.Project), "Mine", "MINE-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPut, "/management/v1/projects/"+pid, map[string]any{"client_trusted_domains": []string{shopOrigin}}, mk), http.StatusOK)
	base := "/management/v1/projects/" + pid + "/client-keys"
	created := must(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "web"}, mk), http.StatusOK)
	id, _ := created["app_id"].(string)
	cl := resttest.Headers{"X-Client-Application-Id": id, "X-Client-Token": created["app_token"].(string), "Origin": shopOrigin}
	validate := "/client/v1/validate?code=MINE-1"
	must(t, e.Do(http.MethodGet, validate, nil, cl), http.StatusOK)

	if upd := must(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"name": "web shop"}, mk), http.StatusOK); upd["name"] != "web shop" {
		t.Errorf("update: %v", upd)
	}
	must(t, e.Do(http.MethodPost, base+"/"+id+"/block", nil, mk), http.StatusOK)
	wantError(t, e.Do(http.MethodGet, validate, nil, cl), http.StatusUnauthorized, "unauthorized", "")
	if unblocked := must(t, e.Do(http.MethodPost, base+"/"+id+"/unblock", nil, mk), http.StatusOK); unblocked["status"] != "ACTIVE" {
		t.Errorf("unblock: %v", unblocked)
	}
	must(t, e.Do(http.MethodGet, validate, nil, cl), http.StatusOK)
	if r := e.Do(http.MethodDelete, base+"/"+id, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	wantError(t, e.Do(http.MethodGet, validate, nil, cl), http.StatusUnauthorized, "unauthorized", "")
}

// TestBarcodeImageThroughTheHarness: GET /v1/assets/barcode/{id} answers a
// PNG without credentials; an unknown id is 404.
func TestBarcodeImageThroughTheHarness(t *testing.T) {
	e := resttest.New(t)
	discountCampaign(t, e, "img", "####", "0123456789", nil)
	v := addVoucher(t, e, "img", map[string]any{"code": "BAR-1"}).JSON(t)
	r := e.Do(http.MethodGet, "/v1/assets/barcode/"+v["id"].(string), nil, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("barcode: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	if _, err := png.Decode(bytes.NewReader(r.Body)); err != nil {
		t.Errorf("barcode is not a PNG: %v", err)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/assets/barcode/v_unknown", nil, nil), http.StatusNotFound, "not_found", "")
}

// TestMemberStatusAndDraftMoves: a member can be deactivated and activated
// again; card definitions, rewards and earning rules move back to DRAFT.
func TestMemberStatusAndDraftMoves(t *testing.T) {
	e := resttest.New(t)
	s := newLoyaltySetup(t, e)
	member := "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member
	if m := mustOK(t, e, http.MethodPost, member+"/deactivate", nil, s.H); m["status"] != "INACTIVE" {
		t.Errorf("deactivate member: %v", m)
	}
	if m := mustOK(t, e, http.MethodPost, member+"/activate", nil, s.H); m["status"] != "ACTIVE" {
		t.Errorf("activate member: %v", m)
	}

	def := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{
		"name": "Silver", "status": "ACTIVE", "code_config": map[string]any{"pattern": "SILV-######", "charset": "0123456789"},
	}, s.H)["id"].(string)
	camp := createCampaign(t, e, map[string]any{"name": "Gift", "voucher": map[string]any{
		"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}})["id"].(string)
	reward := mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Gift card", "status": "ACTIVE", "type": "DIGITAL",
		"digital": map[string]any{"gift_vouchers": map[string]any{"campaign_id": camp, "balance": 500}}}, s.H)["id"].(string)
	rule := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.order.paid"},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 5, "card_definition_id": s.CardDef}}}}}}, s.H)["id"].(string)
	for _, path := range []string{"/v2/loyalties/card-definitions/" + def, "/v2/loyalties/rewards/" + reward, "/v2/loyalties/earning-rules/" + rule} {
		if got := mustOK(t, e, http.MethodPost, path+"/draft", nil, s.H); got["status"] != "DRAFT" {
			t.Errorf("%s/draft: %v", path, got)
		}
		wantErrorKey(t, e.Do(http.MethodPost, path+"/draft", nil, s.H), http.StatusConflict, "invalid_state_transition")
	}
}

// TestLegacyVoucherRedemptionList: GET /v1/vouchers/{code}/redemption lists
// a voucher's redemptions with its quantity and count.
func TestLegacyVoucherRedemptionList(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Legacy", "OLD-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "OLD-1"}, map[string]any{"order": map[string]any{"amount": 1000}}), http.StatusOK)
	got := must(t, e.Do(http.MethodGet, "/v1/vouchers/OLD-1/redemption", nil, app), http.StatusOK)
	if got["redeemed_quantity"] != float64(1) || len(got["redemption_entries"].([]any)) != 1 {
		t.Errorf("legacy redemption list: %v", got)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/NOPE/redemption", nil, app), http.StatusNotFound, "not_found", "")
}
