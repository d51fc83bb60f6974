package campaigns_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func campaignNames(t *testing.T, list map[string]any) []string {
	t.Helper()
	var names []string
	for _, c := range list["campaigns"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	return names
}

func TestCampaignListFiltersOrdersAndPages(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for _, body := range []map[string]any{
		{"name": "First", "campaign_type": "DISCOUNT_COUPONS"},
		{"name": "Gifts", "campaign_type": "GIFT_VOUCHERS", "voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}},
		{"name": "Third", "campaign_type": "DISCOUNT_COUPONS"},
	} {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", body, app), http.StatusOK)
		resttest.WaitABit() // distinct created_at (millisecond precision)
	}
	other := e.NewProject("other")
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Foreign"}, resttest.App(other)), http.StatusOK)

	all := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns", nil, app), http.StatusOK)
	if all["object"] != "list" || all["data_ref"] != "campaigns" || all["total"] != float64(3) ||
		strings.Join(campaignNames(t, all), ",") != "Third,Gifts,First" {
		t.Errorf("GET /v1/campaigns = %v", all)
	}
	asc := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns?order=created_at&limit=2&page=2", nil, app), http.StatusOK)
	if asc["total"] != float64(3) || strings.Join(campaignNames(t, asc), ",") != "Third" {
		t.Errorf("page 2 of 2 ascending = %v", campaignNames(t, asc))
	}
	gifts := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns?campaign_type=GIFT_VOUCHERS", nil, app), http.StatusOK)
	if gifts["total"] != float64(1) || campaignNames(t, gifts)[0] != "Gifts" {
		t.Errorf("campaign_type filter = %v", gifts)
	}
	none := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns?campaign_status=DRAFT", nil, app), http.StatusOK)
	if none["total"] != float64(0) || len(none["campaigns"].([]any)) != 0 {
		t.Errorf("DRAFT filter = %v", none)
	}
	for _, q := range []string{"order=name", "limit=0", "page=100", "campaign_type=COUPONS", "campaign_status=NEW", "is_referral_code=maybe"} {
		resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns?"+q, nil, app), http.StatusBadRequest, "invalid_query_params", "")
	}
	// The same list through GraphQL.
	gql := e.GraphQL(app, `{ campaignList(input: {campaignType: DISCOUNT_COUPONS, order: "created_at"}) { total data { name } } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["campaignList"].(map[string]any)["total"] != float64(2) {
		t.Errorf("campaignList = %+v", gql)
	}
	// A token scoped to campaigns may list; one scoped to vouchers may not.
	resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns", nil, resttest.Bearer(e.Token(app, "campaigns"))), http.StatusOK)
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns", nil, resttest.Bearer(e.Token(app, "vouchers"))), http.StatusForbidden, "forbidden", "campaigns")
}

func TestCampaignUpdateEnableDisable(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DiscountCode(t, e, app, "Autumn", "AUT-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	path := "/v1/campaigns/Autumn"
	resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"metadata": map[string]any{"a": 1, "b": "x"}}, app), http.StatusOK)
	up := resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{
		"description": "fall sale", "start_date": "2026-01-01T00:00:00Z", "expiration_date": "2030-01-01T00:00:00Z",
		"metadata": map[string]any{"c": true}, "unset_metadata_fields": []string{"b"}, "type": "AUTO_UPDATE",
	}, app), http.StatusOK)
	if up["description"] != "fall sale" || up["type"] != "AUTO_UPDATE" || resttest.MustJSON(up["metadata"]) != `{"a":1,"c":true}` ||
		up["start_date"] != "2026-01-01T00:00:00.000Z" || up["name"] != "Autumn" || up["updated_at"] == nil {
		t.Errorf("updated campaign = %v", up)
	}
	// Validity is checked against what the campaign will be: an expiration
	// before the stored start is refused, and nothing changes.
	resttest.WantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"expiration_date": "2025-01-01T00:00:00Z", "description": "x"}, app),
		http.StatusBadRequest, "invalid_payload", "expiration_date")
	resttest.WantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"type": "STANDALONE"}, app), http.StatusBadRequest, "invalid_payload", "type")
	resttest.WantError(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Nope", map[string]any{"description": "x"}, app), http.StatusNotFound, "not_found", "")
	if got := resttest.Must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK); got["description"] != "fall sale" {
		t.Errorf("a refused update changed the campaign: %v", got)
	}

	validate := func() map[string]any {
		return resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/AUT-1/validate", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	}
	if v := validate(); v["valid"] != true {
		t.Fatalf("validation before disabling = %v", v)
	}
	off := resttest.Must(t, e.Do(http.MethodPost, path+"/disable", nil, app), http.StatusOK)
	if off["active"] != false {
		t.Errorf("disabled campaign = %v", off)
	}
	if v := validate(); v["valid"] != false || v["error"].(map[string]any)["key"] != "voucher_disabled" {
		t.Errorf("validation of a disabled campaign's code = %v", v)
	}
	resttest.Must(t, e.Do(http.MethodPost, path+"/disable", nil, app), http.StatusOK) // idempotent
	if on := resttest.Must(t, e.Do(http.MethodPost, path+"/enable", nil, app), http.StatusOK); on["active"] != true {
		t.Errorf("enabled campaign = %v", on)
	}
	if v := validate(); v["valid"] != true {
		t.Errorf("validation after enabling = %v", v)
	}
	// GraphQL: the same use cases.
	gql := e.GraphQL(app, `mutation { disableCampaign(idOrName: "Autumn") { active }
		updateCampaign(idOrName: "Autumn", input: {description: "gql", unsetMetadataFields: ["a"]}) { description metadata } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["disableCampaign"].(map[string]any)["active"] != false ||
		gql.Data["updateCampaign"].(map[string]any)["description"] != "gql" {
		t.Errorf("GraphQL lifecycle = %+v", gql)
	}
}

func TestCampaignDeleteRemovesVouchersAndFreesTheName(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.StaticCampaign(t, e, "Doomed", "D-1", "D-2", "D-3")
	resttest.StaticCampaign(t, e, "Kept", "K-1")
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Doomed"}, "customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/D-1/redemption", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/K-1/redemption", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)

	accepted := e.Do(http.MethodDelete, "/v1/campaigns/Doomed?force=true", nil, app)
	body := resttest.Must(t, accepted, http.StatusAccepted)
	id, _ := body["async_action_id"].(string)
	if !strings.HasPrefix(id, "aa_") {
		t.Fatalf("DELETE campaign = %s", accepted.Body)
	}
	job := e.WaitForJob(app, id)
	if job["status"] != "DONE" || job["type"] != "CAMPAIGN.DELETE" {
		t.Fatalf("deletion job = %v", job)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns/Doomed", nil, app), http.StatusNotFound, "not_found", "")
	for _, code := range []string{"D-1", "D-2", "D-3"} {
		resttest.WantError(t, e.Do(http.MethodGet, "/v1/vouchers/"+code, nil, app), http.StatusNotFound, "not_found", "")
	}
	history := resttest.Must(t, e.Do(http.MethodGet, "/v1/redemptions?limit=100", nil, app), http.StatusOK)
	if h := resttest.MustJSON(history); strings.Contains(h, "D-1") || !strings.Contains(h, "K-1") {
		t.Errorf("redemption history after the deletion = %s", h)
	}
	// What is not the campaign's stays: the other campaign, the customer.
	resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/K-1", nil, app), http.StatusOK)
	resttest.Must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)
	// The name is free again.
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Doomed"}, app), http.StatusOK)
	resttest.WantError(t, e.Do(http.MethodDelete, "/v1/campaigns/Nope", nil, app), http.StatusNotFound, "not_found", "")
	resttest.WantError(t, e.Do(http.MethodDelete, "/v1/campaigns/Kept?force=maybe", nil, app), http.StatusBadRequest, "invalid_query_params", "force")
}

func TestCampaignDeleteIsScheduledOnceAndDisablesAtOnce(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	resttest.DiscountCode(t, e, app, "Once", "ONCE-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	first := resttest.Must(t, e.Do(http.MethodDelete, "/v1/campaigns/Once", nil, app), http.StatusAccepted)
	gql := e.GraphQL(app, `mutation { deleteCampaign(idOrName: "Once", force: true) { id status } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["deleteCampaign"].(map[string]any)["id"] != first["async_action_id"] {
		t.Errorf("second deletion = %+v, first %v", gql, first)
	}
	v := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/ONCE-1/validate", map[string]any{}, app), http.StatusOK)
	if v["valid"] != false {
		t.Errorf("a code of a campaign being deleted validates: %v", v)
	}
	if ran, err := e.Worker.RunOnce(resttest.SystemCtx()); !ran || err != nil {
		t.Fatalf("worker: %v %v", ran, err)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns/Once", nil, app), http.StatusNotFound, "not_found", "")
	// The job is in the async-action list (newest first), and not in another project's.
	jobs := resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions?limit=5", nil, app), http.StatusOK)
	list := jobs["async_actions"].([]any)
	if jobs["data_ref"] != "async_actions" || len(list) != 1 || list[0].(map[string]any)["id"] != first["async_action_id"] ||
		list[0].(map[string]any)["status"] != "DONE" {
		t.Errorf("GET /v1/async-actions = %s", resttest.MustJSON(jobs))
	}
	if other := resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions", nil, resttest.App(e.NewProject("other"))), http.StatusOK); len(other["async_actions"].([]any)) != 0 {
		t.Errorf("another project's async actions = %v", other)
	}
	old := resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions?end_date=2020-01-01", nil, app), http.StatusOK)
	if len(old["async_actions"].([]any)) != 0 {
		t.Errorf("end_date filter = %v", old)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/async-actions?limit=0", nil, app), http.StatusBadRequest, "invalid_query_params", "limit")
}
