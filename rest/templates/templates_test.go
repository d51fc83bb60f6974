package templates_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCampaignTemplateLifecycle(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("Other"))
	rule := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "big orders",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}}, "logic": "1"}}, app), http.StatusOK)
	spring := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Spring", "type": "AUTO_UPDATE",
		"metadata": map[string]any{"a": 1}, "validation_rules": []string{rule["id"].(string)},
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10},
			"code_config": map[string]any{"prefix": "SP-", "length": 6}}}, app), http.StatusOK)
	promo, tiers := resttest.PromotionCampaign(t, e, app, "Promo", resttest.AmountTier("Five off", 500))

	// Bad input: a documented error and nothing written.
	base := "/v1/templates/campaigns"
	for _, bad := range []struct {
		body   map[string]any
		status int
		key    string
	}{
		{map[string]any{"name": "x"}, 400, "invalid_payload"},
		{map[string]any{"name": "x", "campaign_id": spring["id"], "promotion_tier_id": tiers[0]["id"]}, 400, "invalid_payload"},
		{map[string]any{"campaign_id": spring["id"]}, 400, "invalid_payload"},
		{map[string]any{"name": "x", "campaign_id": promo["id"]}, 400, "invalid_payload"},
		{map[string]any{"name": "x", "campaign_id": "camp_nope"}, 404, "not_found"},
		{map[string]any{"name": "x", "promotion_tier_id": "promo_nope"}, 404, "not_found"},
	} {
		resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, bad.body, app), bad.status, bad.key)
	}
	if n := resttest.Count(t, e, base+"?include_total=true", app); n != 0 {
		t.Fatalf("templates after bad input: %v", n)
	}

	tpl := resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "Spring template", "description": "d",
		"campaign_id": "Spring"}, app), http.StatusOK)
	id, _ := tpl["id"].(string)
	if !strings.HasPrefix(id, "camp_tpl_") || tpl["campaign_type"] != "DISCOUNT_COUPONS" || tpl["object"] != "campaign_template" ||
		tpl["description"] != "d" {
		t.Fatalf("created: %v", tpl)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "Spring template", "campaign_id": spring["id"]}, app),
		http.StatusConflict, "duplicate_found")

	// Another project sees none of it.
	resttest.WantNotFound(t, e.Do(http.MethodGet, base+"/"+id, nil, other), "campaign_template", id)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{"name": "mine"}, other), "campaign_template", id)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, base+"/"+id+"/campaign-setup", map[string]any{"name": "mine"}, other), "campaign_template", id)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, base+"/"+id, nil, other), "campaign_template", id)
	if n := resttest.Count(t, e, base+"?include_total=true", other); n != 0 {
		t.Fatalf("other project lists %v templates", n)
	}

	// Update: a null description removes it.
	upd := resttest.Must(t, e.Do(http.MethodPut, base+"/"+id, []byte(`{"name":"Renamed","description":null}`), app), http.StatusOK)
	if _, has := upd["description"]; has || upd["name"] != "Renamed" || upd["updated_at"] == nil {
		t.Fatalf("updated: %v", upd)
	}

	// Campaign set-up: the template's discount and rules, the request's overrides.
	rulesBefore := resttest.Count(t, e, "/v1/validation-rules", app)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base+"/"+id+"/campaign-setup", map[string]any{"name": "Spring"}, app),
		http.StatusConflict, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base+"/"+id+"/campaign-setup", map[string]any{"description": "no name"}, app),
		http.StatusBadRequest, "invalid_payload")
	if n := resttest.Count(t, e, "/v1/validation-rules", app); n != rulesBefore {
		t.Fatalf("a failed set-up left validation rules: %v, want %v", n, rulesBefore)
	}
	setup := resttest.Must(t, e.DoJSON(http.MethodPost, base+"/"+id+"/campaign-setup", map[string]any{"name": "Summer",
		"metadata": map[string]any{"b": 2}, "voucher": map[string]any{"code_config": map[string]any{"prefix": "SU-", "length": 6}}}, app), http.StatusOK)
	cmp := setup["campaign"].(map[string]any)
	voucher := cmp["voucher"].(map[string]any)
	if setup["object"] != "campaign_setup" || cmp["name"] != "Summer" || cmp["type"] != "AUTO_UPDATE" ||
		voucher["discount"].(map[string]any)["percent_off"] != float64(10) ||
		voucher["code_config"].(map[string]any)["prefix"] != "SU-" || cmp["metadata"].(map[string]any)["b"] != float64(2) {
		t.Fatalf("campaign-setup: %v", setup)
	}
	made := setup["created_resources"].([]any)
	if len(made) != 1 || made[0].(map[string]any)["object"] != "validation_rules" || made[0].(map[string]any)["id"] == rule["id"] {
		t.Fatalf("created_resources: %v", made)
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/validation-rules/"+made[0].(map[string]any)["id"].(string), nil, app), http.StatusOK)

	// Tier set-up: a tier of a PROMOTION campaign with the template's discount.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base+"/"+id+"/tier-setup", map[string]any{"campaign_id": "Spring", "name": "t"}, app),
		http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base+"/"+id+"/tier-setup", map[string]any{"name": "t"}, app),
		http.StatusBadRequest, "invalid_payload")
	ts := resttest.Must(t, e.DoJSON(http.MethodPost, base+"/"+id+"/tier-setup", map[string]any{"campaign_id": promo["id"], "name": "From template"}, app), http.StatusOK)
	tier := ts["promotion_tier"].(map[string]any)
	if ts["object"] != "promotion_tier_setup" || tier["name"] != "From template" ||
		tier["action"].(map[string]any)["discount"].(map[string]any)["percent_off"] != float64(10) || len(ts["created_resources"].([]any)) != 1 {
		t.Fatalf("tier-setup: %v", ts)
	}

	// A tier's template makes a discount campaign.
	fromTier := resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"name": "Tier template", "promotion_tier_id": tiers[0]["id"]}, app), http.StatusOK)
	if fromTier["campaign_type"] != "DISCOUNT_COUPONS" {
		t.Fatalf("tier template: %v", fromTier)
	}
	fall := resttest.Must(t, e.DoJSON(http.MethodPost, base+"/"+fromTier["id"].(string)+"/campaign-setup", map[string]any{"name": "Fall"}, app), http.StatusOK)
	if d := fall["campaign"].(map[string]any)["voucher"].(map[string]any)["discount"].(map[string]any); d["amount_off"] != float64(500) {
		t.Fatalf("campaign from a tier template: %v", fall)
	}

	// Lists: paging, order, filters.
	page := resttest.Must(t, e.Do(http.MethodGet, base+"?limit=1", nil, app), http.StatusOK)
	if data := page["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != id || page["has_more"] != true ||
		page["more_starting_after"] != id {
		t.Fatalf("page 1: %v", page)
	}
	page = resttest.Must(t, e.Do(http.MethodGet, base+"?limit=1&starting_after_id="+id, nil, app), http.StatusOK)
	if data := page["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != fromTier["id"] || page["has_more"] != false {
		t.Fatalf("page 2: %v", page)
	}
	page = resttest.Must(t, e.Do(http.MethodGet, base+"?order=-id&filters[name][conditions][$starts_with]=Tier&include_total=true", nil, app), http.StatusOK)
	if data := page["data"].([]any); len(data) != 1 || page["total"] != float64(1) {
		t.Fatalf("filtered: %v", page)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"?order=name", nil, app), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"?filters[nope][conditions][$is]=x", nil, app), http.StatusBadRequest, "invalid_query_params")

	// Delete: gone, and the campaigns made from it stay.
	if r := e.Do(http.MethodDelete, base+"/"+id, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, base+"/"+id, nil, app), "campaign_template", id)
	resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Summer", nil, app), http.StatusOK)
}

func TestCampaignTemplatesOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Gifts",
		"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}}, app), http.StatusOK)
	r := e.GraphQL(app, `mutation { createCampaignTemplate(input: {name: "G", campaignID: "Gifts"}) { id campaignType } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("create: %+v", r.Errors)
	}
	id := r.Data["createCampaignTemplate"].(map[string]any)["id"].(string)
	r = e.GraphQL(app, `mutation($id: ID!) { createCampaignFromTemplate(id: $id, input: {name: "More gifts"}) { campaign { name campaignType } } }`,
		map[string]any{"id": id})
	if len(r.Errors) > 0 || r.Data["createCampaignFromTemplate"].(map[string]any)["campaign"].(map[string]any)["campaignType"] != "GIFT_VOUCHERS" {
		t.Fatalf("set-up: %+v", r)
	}
	// A gift template has no tier form.
	resttest.PromotionCampaign(t, e, app, "Promo")
	r = e.GraphQL(app, `mutation($id: ID!) { addPromotionTierFromTemplate(id: $id, input: {campaignID: "Promo", name: "t"}) { promotionTier { id } } }`,
		map[string]any{"id": id})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Fatalf("gift tier-setup: %+v", r)
	}
	r = e.GraphQL(app, `{ campaignTemplates(input: {includeTotal: true}) { total data { name } } }`, nil)
	if len(r.Errors) > 0 || r.Data["campaignTemplates"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("list: %+v", r)
	}
}
