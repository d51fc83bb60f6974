package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestLegacyPromotionValidation(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "big carts",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10000}}}, "logic": "1"}}, app), http.StatusOK)
	big := amountTier("Big", 5000)
	big["validation_rules"] = []string{rule["id"].(string)}
	_, tiers := promotionCampaign(t, e, app, "Legacy", amountTier("Ten off", 1000), percentTier("Tenth", 10), big, amountTier("Off", 1))
	must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+tiers[3]["id"].(string)+"/disable", nil, app), http.StatusOK)

	// Each applicable tier on the original 6000 cart, by hierarchy; the
	// rule-bound and the disabled tiers are left out.
	res := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/validation", map[string]any{"order": cart()}, app), http.StatusOK)
	ps := res["promotions"].([]any)
	if res["valid"] != true || len(ps) != 2 {
		t.Fatalf("legacy validation: %s", mustJSON(res))
	}
	first, second := ps[0].(map[string]any), ps[1].(map[string]any)
	if first["id"] != tiers[0]["id"] || num(first["order"].(map[string]any)["total_amount"]) != 5000 ||
		second["id"] != tiers[1]["id"] || num(second["order"].(map[string]any)["total_amount"]) != 5400 ||
		first["object"] != "promotion_tier" || first["campaign"].(map[string]any)["object"] != "campaign" {
		t.Fatalf("promotions: %s", mustJSON(ps))
	}
	// Nothing applies to an order that no discount changes.
	res = must(t, e.DoJSON(http.MethodPost, "/v1/promotions/validation", map[string]any{}, app), http.StatusOK)
	if res["valid"] != false || len(res["promotions"].([]any)) != 0 {
		t.Fatalf("no order: %s", mustJSON(res))
	}
}

func TestLegacyPromotionTierRedemption(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := promotionCampaign(t, e, app, "Legacy", amountTier("Ten off", 1000))
	id := tiers[0]["id"].(string)
	red := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/"+id+"/redemption", map[string]any{"order": map[string]any{"amount": 3000},
		"customer": map[string]any{"source_id": "zoe"}}, app), http.StatusOK)
	if red["result"] != "SUCCESS" || red["related_object_type"] != "promotion_tier" || red["redemption"] != nil ||
		red["promotion_tier"].(map[string]any)["id"] != id || num(red["order"].(map[string]any)["total_amount"]) != 2000 {
		t.Fatalf("legacy redemption: %s", mustJSON(red))
	}
	if s := tierSummary(t, e, app, id); s != [3]float64{1, 3000, 1000} {
		t.Fatalf("summary: %v", s)
	}
	// The single redemption rolls back alone.
	must(t, e.Do(http.MethodPost, "/v1/redemptions/"+red["id"].(string)+"/rollback", nil, app), http.StatusOK)
	if s := tierSummary(t, e, app, id); s != [3]float64{0, 0, 0} {
		t.Fatalf("summary after rollback: %v", s)
	}
	// Disabled: 400 promotion_inactive with a failed redemption; unknown: 404.
	must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+id+"/disable", nil, app), http.StatusOK)
	failed := wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/"+id+"/redemption", map[string]any{}, app), http.StatusBadRequest, "promotion_inactive")
	if failed["message"] != "Inactive Promotion" || failed["details"] != "Promotion Tier with id: "+id+" is disabled." ||
		failed["resource_type"] != "redemption" {
		t.Errorf("failure: %v", failed)
	}
	rf := must(t, e.Do(http.MethodGet, "/v1/redemptions/"+failed["resource_id"].(string), nil, app), http.StatusOK)
	if rf["result"] != "FAILURE" || rf["failure_code"] != "promotion_inactive" || rf["related_object_id"] != id {
		t.Errorf("failed redemption: %v", rf)
	}
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/promo_nope/redemption", map[string]any{}, app), "promotion_tier", "promo_nope")
}

func TestPromotionTierRedemptionOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := promotionCampaign(t, e, app, "GQL", amountTier("Ten off", 1000))
	id := tiers[0]["id"].(string)
	r := e.GraphQL(app, `mutation($in: StackedRedemptionInput!) { validateStacked(input: $in) { valid redeemables { id object status } } }`,
		map[string]any{"in": map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": map[string]any{"amount": 2000}}})
	if len(r.Errors) > 0 || r.Data["validateStacked"].(map[string]any)["valid"] != true {
		t.Fatalf("validateStacked: %+v %v", r.Errors, r.Data)
	}
	r = e.GraphQL(app, `mutation($in: StackedRedemptionInput!) { redeemStacked(input: $in) { redemptions { relatedObjectType promotionTier { id redeemedCount } } } }`,
		map[string]any{"in": map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": map[string]any{"amount": 2000}}})
	if len(r.Errors) > 0 {
		t.Fatalf("redeemStacked: %+v", r.Errors)
	}
	child := r.Data["redeemStacked"].(map[string]any)["redemptions"].([]any)[0].(map[string]any)
	if child["relatedObjectType"] != "promotion_tier" || child["promotionTier"].(map[string]any)["id"] != id {
		t.Fatalf("child: %v", child)
	}
	r = e.GraphQL(app, `mutation($id: ID!) { redeemPromotionTier(id: $id, input: {order: {amount: 500}}) { redemption { id } } validatePromotions(input: {order: {amount: 500}}) { valid promotions } }`,
		map[string]any{"id": id})
	if len(r.Errors) > 0 || r.Data["validatePromotions"].(map[string]any)["valid"] != true {
		t.Fatalf("legacy over GraphQL: %+v %v", r.Errors, r.Data)
	}
	if s := tierSummary(t, e, app, id); s[0] != 2 {
		t.Fatalf("summary: %v", s)
	}
}

// TestClientSideTierValidation: the client API's stacked validation takes
// promotion tiers as the server API's does, from a trusted origin.
func TestClientSideTierValidation(t *testing.T) {
	e := resttest.New(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	_, tiers := promotionCampaign(t, e, app, "Web", amountTier("Ten off", 1000))
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(e.Project, shopOrigin)
	res := must(t, e.DoJSON(http.MethodPost, "/client/v1/validations", map[string]any{"redeemables": []any{
		tierRedeemable(tiers[0]["id"].(string))}, "order": map[string]any{"amount": 3000}}, cl), http.StatusOK)
	if res["valid"] != true || num(res["order"].(map[string]any)["total_amount"]) != 2000 {
		t.Fatalf("client validation: %s", mustJSON(res))
	}
	wrongOrigin := resttest.Client(e.Project, "https://evil.example")
	if r := e.DoJSON(http.MethodPost, "/client/v1/validations", map[string]any{"redeemables": []any{
		tierRedeemable(tiers[0]["id"].(string))}}, wrongOrigin); r.Status/100 != 4 {
		t.Fatalf("untrusted origin: %d %s", r.Status, r.Body)
	}
}

// TestPromotionTierWebhookEvents: tier events and a tier redemption's
// redemption.succeeded carry the tier in its REST shape.
func TestPromotionTierWebhookEvents(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	rcv := newReceiver(t)
	hook := createHook(t, e, mk, rcv.srv.URL, "campaign.promotion_tier.created", "campaign.promotion_tier.disabled",
		"campaign.promotion_stack.created", "redemption.succeeded")
	_, tiers := promotionCampaign(t, e, app, "Hooked", amountTier("Ten off", 1000))
	id := tiers[0]["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/promotions/Hooked/stacks", map[string]any{"name": "s", "tiers": map[string]any{"ids": []string{id}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(id)}, "order": map[string]any{"amount": 2000}}, app), http.StatusOK)
	must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+id+"/disable", nil, app), http.StatusOK)
	byType := map[string]map[string]any{}
	for _, ev := range hookEvents(t, e, mk, hook["id"].(string), "") {
		full := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hook["id"].(string)+"/events/"+ev["id"].(string), nil, mk), http.StatusOK)
		data, _ := full["data"].(map[string]any)
		byType[full["type"].(string)] = data
	}
	if len(byType) != 4 {
		t.Fatalf("events: %v", byType)
	}
	created := byType["campaign.promotion_tier.created"]
	if created["promotion_tier"].(map[string]any)["id"] != id || created["promotion_tier"].(map[string]any)["object"] != "promotion_tier" ||
		created["campaign"].(map[string]any)["name"] != "Hooked" {
		t.Errorf("tier created: %v", created)
	}
	red := byType["redemption.succeeded"]
	if red["promotion_tier"].(map[string]any)["id"] != id || red["redemption"].(map[string]any)["related_object_type"] != "promotion_tier" ||
		red["campaign"].(map[string]any)["name"] != "Hooked" || red["voucher"] != nil {
		t.Errorf("redemption.succeeded: %v", red)
	}
	if byType["campaign.promotion_tier.disabled"]["promotion_tier"].(map[string]any)["active"] != false {
		t.Errorf("disabled: %v", byType["campaign.promotion_tier.disabled"])
	}
}
