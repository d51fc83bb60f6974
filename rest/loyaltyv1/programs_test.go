package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestV1LoyaltyProgramsAsAUserDrivesThem(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	prg := resttest.NewV1Program(t, e, app, "Club v1", 100)
	id := prg["id"].(string)
	if prg["campaign_type"] != "LOYALTY_PROGRAM" || prg["join_once"] != true || prg["object"] != "campaign" {
		t.Fatalf("program %v", prg)
	}
	if lc := prg["voucher"].(map[string]any)["loyalty_card"].(map[string]any); lc["points"] != float64(100) {
		t.Errorf("voucher.loyalty_card %v", lc)
	}
	// Created without extend: none (the documents require the member).
	if te, _ := prg["loyalty_tiers_expiration"].(map[string]any); te["qualification_type"] != "BALANCE" ||
		te["expiration_date"].(map[string]any)["extend"] != "P0D" {
		t.Errorf("loyalty_tiers_expiration %v", prg["loyalty_tiers_expiration"])
	}
	// The same campaign through /v1/campaigns, by ID and by name.
	if got := resttest.MustOK(t, e, http.MethodGet, "/v1/campaigns/"+id, nil, app); got["name"] != "Club v1" {
		t.Errorf("/v1/campaigns %v", got)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/Club%20v1", nil, app); got["id"] != id {
		t.Errorf("by name %v", got)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties", map[string]any{"name": "Club v1"}, app), 409, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties", map[string]any{"name": "x", "campaign_type": "DISCOUNT_COUPONS"}, app), 400, "invalid_payload")

	// A discount campaign is not a loyalty program; the list holds programs only.
	resttest.MustOK(t, e, http.MethodPost, "/v1/campaigns", map[string]any{"name": "Promo", "voucher": map[string]any{"type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "PERCENT", "percent_off": 10}}}, app)
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/Promo", nil, app), 404, "not_found")
	list := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties?limit=10", nil, app)
	if list["total"] != float64(1) || list["data_ref"] != "campaigns" || len(list["campaigns"].([]any)) != 1 {
		t.Errorf("list %v", list)
	}

	// Update: allowed fields change, join_once stays true, others are ignored.
	upd := resttest.MustOK(t, e, http.MethodPut, "/v1/loyalties/"+id, map[string]any{"description": "new", "join_once": false,
		"name": "renamed", "loyalty_card": map[string]any{"points": 5, "expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 3}}}, app)
	lc := upd["voucher"].(map[string]any)["loyalty_card"].(map[string]any)
	if upd["description"] != "new" || upd["join_once"] != true || upd["name"] != "Club v1" || lc["points"] != float64(5) || lc["expiration_rules"] == nil {
		t.Errorf("update %v", upd)
	}

	// The v1 program is not a v2 program, and a v2 program is not a v1 one.
	v2h := resttest.V2(t, e, e.Project)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Club v2"}, v2h)
	v2list := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs", nil, v2h)
	for _, p := range v2list["data"].([]any) {
		if p.(map[string]any)["id"] == id {
			t.Errorf("v1 program in the v2 list")
		}
	}
	if n := len(v2list["data"].([]any)); n != 1 {
		t.Errorf("v2 list has %d programs, want 1", n)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/"+id, nil, v2h), 404, "not_found")
	if list := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties", nil, app); list["total"] != float64(1) {
		t.Errorf("v2 program in the v1 list: %v", list)
	}

	// Another project sees nothing.
	other := resttest.App(e.NewProject("other"))
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id, nil, other), 404, "not_found")

	// Delete: an async action; the program is gone once it has run.
	del := resttest.MustOK(t, e, http.MethodDelete, "/v1/loyalties/"+id+"?force=true", nil, app)
	if job := e.WaitForJob(app, del["async_action_id"].(string)); job["status"] != "DONE" {
		t.Fatalf("delete job %v", job)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id, nil, app), 404, "not_found")
}
