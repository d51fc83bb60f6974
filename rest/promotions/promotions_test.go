package promotions_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

var tierIDRE = regexp.MustCompile(`^promo_[0-9A-Za-z]{24}$`)

func TestPromotionTierLifecycle(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, tiers := resttest.PromotionCampaign(t, e, app, "Cart deals", resttest.AmountTier("Ten off", 1000), resttest.AmountTier("Twenty off", 2000))
	cid := cmp["id"].(string)
	// The campaign (create and GET) embeds its tiers by hierarchy.
	for _, got := range []map[string]any{cmp, resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/"+cid, nil, app), http.StatusOK)} {
		p, _ := got["promotion"].(map[string]any)
		if p == nil || p["data_ref"] != "tiers" || p["total"] != float64(2) || p["has_more"] != false ||
			p["tiers"].([]any)[1].(map[string]any)["name"] != "Twenty off" {
			t.Errorf("campaign promotion = %v", got["promotion"])
		}
	}
	if len(tiers) != 2 || tiers[0]["name"] != "Ten off" || tiers[0]["hierarchy"] != float64(1) || tiers[1]["hierarchy"] != float64(2) {
		t.Fatalf("inline tiers = %v", tiers)
	}
	first := tiers[0]
	if !tierIDRE.MatchString(first["id"].(string)) || first["object"] != "promotion_tier" || first["campaign_id"] != cid ||
		first["promotion_id"] != cid || first["active"] != true || first["banner"] != "Ten off!" ||
		first["validation_rule_assignments"] != nil {
		t.Errorf("tier = %v", first)
	}
	if _, ok := first["updated_at"]; ok {
		t.Errorf("a fresh tier has no updated_at: %v", first)
	}
	if c := first["campaign"].(map[string]any); c["id"] != cid || c["object"] != "campaign" || c["active"] != true {
		t.Errorf("tier campaign = %v", c)
	}
	summary := first["summary"].(map[string]any)
	if summary["redemptions"].(map[string]any)["total_redeemed"] != float64(0) {
		t.Errorf("summary = %v", summary)
	}

	// A tier added to the campaign (by name) comes after the last one and
	// gets its validation rule as an assignment.
	rule := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "big carts",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10000}}, "rules": map[string]any{}}, "logic": "1"}}, app), http.StatusOK)
	body := resttest.AmountTier("Thirty off", 3000)
	body["validation_rules"] = []string{rule["id"].(string)}
	body["metadata"] = map[string]any{"level": "gold"}
	added := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/promotions/Cart%20deals/tiers", body, app), http.StatusOK)
	id := added["id"].(string)
	as, _ := added["validation_rule_assignments"].(map[string]any)
	if added["hierarchy"] != float64(3) || as == nil || as["total"] != float64(1) ||
		as["data"].([]any)[0].(map[string]any)["rule_id"] != rule["id"] ||
		as["data"].([]any)[0].(map[string]any)["related_object_type"] != "promotion_tier" {
		t.Errorf("added = %v", added)
	}

	// Get, update, disable, enable.
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers/"+id, nil, app), http.StatusOK); got["name"] != "Thirty off" ||
		got["metadata"].(map[string]any)["level"] != "gold" {
		t.Errorf("get = %v", got)
	}
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/promotions/tiers/"+id, map[string]any{"name": "Thirty-five off",
		"action": map[string]any{"discount": map[string]any{"type": "PERCENT", "percent_off": 35}}}, app), http.StatusOK)
	if upd["name"] != "Thirty-five off" || upd["updated_at"] == nil || upd["banner"] != "Thirty off!" ||
		upd["action"].(map[string]any)["discount"].(map[string]any)["percent_off"] != float64(35) {
		t.Errorf("update = %v", upd)
	}
	if off := resttest.Must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+id+"/disable", nil, app), http.StatusOK); off["active"] != false {
		t.Errorf("disable = %v", off)
	}
	avail := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers?is_available=true", nil, app), http.StatusOK)
	if avail["total"] != float64(2) || avail["data_ref"] != "tiers" || avail["has_more"] != false {
		t.Errorf("available tiers = %v", avail)
	}
	if on := resttest.Must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+id+"/enable", nil, app), http.StatusOK); on["active"] != true {
		t.Errorf("enable = %v", on)
	}

	// Paging: limit 2 of 3, newest first.
	page1 := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers?limit=2", nil, app), http.StatusOK)
	if page1["total"] != float64(3) || page1["has_more"] != true || len(page1["tiers"].([]any)) != 2 {
		t.Errorf("page 1 = %v", page1)
	}
	page2 := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers?limit=2&page=2", nil, app), http.StatusOK)
	if page2["has_more"] != false || len(page2["tiers"].([]any)) != 1 {
		t.Errorf("page 2 = %v", page2)
	}

	// Delete: 204, then 404 with the promotion_tier error object.
	if r := e.Do(http.MethodDelete, "/v1/promotions/tiers/"+id, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/promotions/tiers/"+id, nil, app), "promotion_tier", id)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/promotions/tiers/"+id, nil, app), "promotion_tier", id)
	resttest.WantNotFound(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+id+"/enable", nil, app), "promotion_tier", id)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/promotions/camp_nope/tiers", resttest.AmountTier("x", 1), app), "campaign", "camp_nope")
}

func TestPromotionTierBadInputWritesNothing(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, _ := resttest.PromotionCampaign(t, e, app, "Deals")
	cid := cmp["id"].(string)
	for _, body := range []map[string]any{
		{"banner": "no name", "action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}},
		{"name": "no action"},
		{"name": "bad type", "action": map[string]any{"discount": map[string]any{"type": "BOGUS"}}},
		{"name": "negative", "action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": -5}}},
		{"name": "dates", "start_date": "2030-01-02T00:00:00Z", "expiration_date": "2030-01-01T00:00:00Z",
			"action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}},
		{"name": "rule", "validation_rules": []string{"val_nope"}, "action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}},
	} {
		r := e.DoJSON(http.MethodPost, "/v1/promotions/"+cid+"/tiers", body, app)
		if r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
			t.Errorf("%v: %d %s", body, r.Status, r.Body)
		}
	}
	// Tiers on a campaign that is not a PROMOTION are refused.
	resttest.CreateCampaign(t, e, map[string]any{"name": "codes", "campaign_type": "DISCOUNT_COUPONS", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 1500},
			"redemption": map[string]any{"quantity": 3}, "code_config": map[string]any{"pattern": "####", "charset": "0123456789", "prefix": "P-"}}})
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/promotions/codes/tiers", resttest.AmountTier("x", 1), app), http.StatusBadRequest, "invalid_payload")
	// A campaign create whose tier is bad writes no campaign either.
	r := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Half", "campaign_type": "PROMOTION",
		"promotion": map[string]any{"tiers": []any{resttest.AmountTier("ok", 1), map[string]any{"name": "broken"}}}}, app)
	resttest.WantErrorKey(t, r, http.StatusBadRequest, "invalid_payload")
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/campaigns/Half", nil, app), "campaign", "Half")
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers", nil, app), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("bad input wrote tiers: %v", l)
	}
}

func TestPromotionStacks(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, tiers := resttest.PromotionCampaign(t, e, app, "Stackable", resttest.AmountTier("A", 100), resttest.AmountTier("B", 200), resttest.AmountTier("C", 300))
	cid := cmp["id"].(string)
	ids := []string{tiers[2]["id"].(string), tiers[0]["id"].(string)}
	created := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cid+"/stacks", map[string]any{"name": "C then A",
		"tiers": map[string]any{"ids": ids, "hierarchy_mode": "MANUAL"}}, app), http.StatusOK)
	sid := created["id"].(string)
	if !regexp.MustCompile(`^stack_`).MatchString(sid) || created["object"] != "promotion_stack" || created["campaign_id"] != cid ||
		created["tiers"].(map[string]any)["ids"].([]any)[0] != ids[0] || created["category_id"] != nil {
		t.Errorf("stack = %v", created)
	}
	// The campaign by name on the single-stack paths.
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/Stackable/stacks/"+sid, nil, app), http.StatusOK); got["name"] != "C then A" {
		t.Errorf("get = %v", got)
	}
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/promotions/"+cid+"/stacks/"+sid, map[string]any{"name": "B only",
		"tiers": map[string]any{"ids": []string{tiers[1]["id"].(string)}}}, app), http.StatusOK)
	if upd["name"] != "B only" || len(upd["tiers"].(map[string]any)["ids"].([]any)) != 1 || upd["updated_at"] == nil {
		t.Errorf("update = %v", upd)
	}
	for _, path := range []string{"/v1/promotions/stacks", "/v1/promotions/" + cid + "/stacks", "/v1/promotions/stacks?order=name&created_at[after]=2020-01-01"} {
		if l := resttest.Must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK); l["total"] != float64(1) || l["data_ref"] != "data" {
			t.Errorf("%s = %v", path, l)
		}
	}
	// A tier of no campaign's, too many tiers, no name: nothing written.
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cid+"/stacks", map[string]any{"name": "x",
		"tiers": map[string]any{"ids": []string{"promo_nope"}}}, app), "promotion_tier", "promo_nope")
	many := make([]string, 31)
	for i := range many {
		many[i] = tiers[0]["id"].(string)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cid+"/stacks", map[string]any{"name": "x",
		"tiers": map[string]any{"ids": many}}, app), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cid+"/stacks", map[string]any{
		"tiers": map[string]any{"ids": ids}}, app), http.StatusBadRequest, "invalid_payload")
	// Deleting the stack's only tier deletes the stack.
	if r := e.Do(http.MethodDelete, "/v1/promotions/tiers/"+tiers[1]["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete tier: %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/promotions/"+cid+"/stacks/"+sid, nil, app), "promotion_stack", sid)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/promotions/"+cid+"/stacks/"+sid, nil, app), "promotion_stack", sid)
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/promotions/nope/stacks/"+sid, nil, app), "campaign", "nope")
	again := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cid+"/stacks", map[string]any{"name": "A",
		"tiers": map[string]any{"ids": []string{tiers[0]["id"].(string)}}}, app), http.StatusOK)
	if r := e.Do(http.MethodDelete, "/v1/promotions/"+cid+"/stacks/"+again["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete stack: %d %s", r.Status, r.Body)
	}
}

func TestPromotionTiersTenancy(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, tiers := resttest.PromotionCampaign(t, e, app, "Mine", resttest.AmountTier("A", 100))
	other := resttest.App(e.NewProject("other"))
	id := tiers[0]["id"].(string)
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/promotions/tiers/"+id, nil, other), "promotion_tier", id)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPut, "/v1/promotions/tiers/"+id, map[string]any{"name": "x"}, other), "promotion_tier", id)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/promotions/tiers/"+id, nil, other), "promotion_tier", id)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cmp["id"].(string)+"/tiers", resttest.AmountTier("x", 1), other), "campaign", cmp["id"].(string))
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("another project sees tiers: %v", l)
	}
}

func TestPromotionTiersOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, _ := resttest.PromotionCampaign(t, e, app, "GQL")
	r := e.GraphQL(app, `mutation($c: ID!, $in: PromotionTierInput!) { createPromotionTier(campaign: $c, input: $in) { id name hierarchy active discount { type amountOff } } }`,
		map[string]any{"c": cmp["id"], "in": map[string]any{"name": "Five off", "action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amountOff": 500}}}})
	if len(r.Errors) > 0 {
		t.Fatalf("create: %+v", r.Errors)
	}
	tier := r.Data["createPromotionTier"].(map[string]any)
	id := tier["id"].(string)
	if tier["name"] != "Five off" || tier["hierarchy"] != float64(1) || tier["active"] != true {
		t.Errorf("created = %v", tier)
	}
	r = e.GraphQL(app, `mutation($id: ID!) { disablePromotionTier(id: $id) { active } }`, map[string]any{"id": id})
	if len(r.Errors) > 0 || r.Data["disablePromotionTier"].(map[string]any)["active"] != false {
		t.Fatalf("disable: %+v %v", r.Errors, r.Data)
	}
	r = e.GraphQL(app, `query($c: ID!) { campaignPromotionTiers(campaign: $c) { total hasMore data { id } } promotionTierList { total } }`, map[string]any{"c": "GQL"})
	if len(r.Errors) > 0 || r.Data["campaignPromotionTiers"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("list: %+v %v", r.Errors, r.Data)
	}
	r = e.GraphQL(app, `mutation($c: ID!, $in: PromotionStackInput!) { createPromotionStack(campaign: $c, input: $in) { id tierIds } }`,
		map[string]any{"c": "GQL", "in": map[string]any{"name": "S", "tiers": map[string]any{"ids": []string{id}}}})
	if len(r.Errors) > 0 {
		t.Fatalf("stack: %+v", r.Errors)
	}
	r = e.GraphQL(app, `query($id: ID!) { promotionTier(id: $id) { id } }`, map[string]any{"id": "promo_nope"})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "not_found" {
		t.Fatalf("unknown tier: %+v", r.Errors)
	}
	r = e.GraphQL(app, `mutation($id: ID!) { deletePromotionTier(id: $id) }`, map[string]any{"id": id})
	if len(r.Errors) > 0 || r.Data["deletePromotionTier"] != id {
		t.Fatalf("delete: %+v %v", r.Errors, r.Data)
	}
}

// TestRuleAssignmentToATier: a rule assigned to a tier through the rule's
// assignments (both body forms) holds in validations; unknown tiers are 404.
func TestRuleAssignmentToATier(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := resttest.PromotionCampaign(t, e, app, "Assigned", resttest.AmountTier("A", 100), resttest.AmountTier("B", 100))
	rule := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "big carts",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10000}}}, "logic": "1"}}, app), http.StatusOK)
	path := "/v1/validation-rules/" + rule["id"].(string) + "/assignments"
	a := resttest.Must(t, e.DoJSON(http.MethodPost, path, map[string]any{"related_object_type": "promotion_tier", "related_object_id": tiers[0]["id"]}, app), http.StatusOK)
	if a["related_object_type"] != "promotion_tier" || a["related_object_id"] != tiers[0]["id"] {
		t.Errorf("assignment = %v", a)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, path, map[string]any{"promotion_tier": tiers[1]["id"]}, app), http.StatusOK)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, path, map[string]any{"promotion_tier": "promo_nope"}, app), "promotion_tier", "promo_nope")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, map[string]any{"related_object_type": "order", "related_object_id": "x"}, app), http.StatusBadRequest, "invalid_payload")
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/promotions/tiers/"+tiers[0]["id"].(string), nil, app), http.StatusOK)
	if got["validation_rule_assignments"].(map[string]any)["total"] != float64(1) {
		t.Errorf("tier assignments = %v", got["validation_rule_assignments"])
	}
	res := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "promotion_tier", "id": tiers[0]["id"]}}, "order": map[string]any{"amount": 500}}, app), http.StatusOK)
	if res["valid"] != false {
		t.Errorf("the assigned rule did not hold: %s", resttest.MustJSON(res))
	}
}
