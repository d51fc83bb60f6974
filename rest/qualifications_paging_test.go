package rest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// ids are the page's redeemable ids in answer order.
func qualifiedIDs(res map[string]any) []string {
	var out []string
	for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

func TestQualificationPagingFiltersAndSorting(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, _ := promotionCampaign(t, e, app, "Steps")
	var ids []string // oldest first; each a little more off
	for i := 1; i <= 7; i++ {
		tr := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+cmp["id"].(string)+"/tiers", amountTier("Step", i*100), app), http.StatusOK)
		ids = append(ids, tr["id"].(string))
		waitABit() // distinct created_at: the cursor is a date
	}
	other, _ := promotionCampaign(t, e, app, "Other", amountTier("Other", 50))
	_, disabled := promotionCampaign(t, e, app, "Off", amountTier("Off", 5000))
	must(t, e.Do(http.MethodPost, "/v1/promotions/tiers/"+disabled[0]["id"].(string)+"/disable", nil, app), http.StatusOK)
	post := func(options map[string]any) map[string]any {
		return must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": cart(), "options": options}, app), http.StatusOK)
	}

	// Newest first, three at a time, by the more_starting_after cursor;
	// the disabled tier never appears.
	all := []string{}
	options := map[string]any{"limit": 3, "filters": map[string]any{"campaign_id": map[string]any{"conditions": map[string]any{"$is": cmp["id"]}}}}
	for page := 0; ; page++ {
		res := post(options)
		list := res["redeemables"].(map[string]any)
		all = append(all, qualifiedIDs(res)...)
		if num(list["total"]) != float64(len(qualifiedIDs(res))) {
			t.Fatalf("total is not the page size: %s", mustJSON(list))
		}
		if list["has_more"] != true {
			if _, set := list["more_starting_after"]; set || page != 2 {
				t.Fatalf("last page %d: %s", page, mustJSON(list))
			}
			break
		}
		options["starting_after"] = list["more_starting_after"]
	}
	want := slices.Clone(ids)
	slices.Reverse(want)
	if !slices.Equal(all, want) {
		t.Fatalf("pages: %v, want %v", all, want)
	}

	// Filters: resource ids with $in, OR junction, not-in.
	res := post(map[string]any{"limit": 50, "filters": map[string]any{"junction": "OR",
		"resource_id": map[string]any{"conditions": map[string]any{"$in": []any{ids[0], ids[1]}}},
		"campaign_id": map[string]any{"conditions": map[string]any{"$is": other["id"]}}}})
	if got := qualifiedIDs(res); len(got) != 3 || !slices.Contains(got, ids[0]) || !slices.Contains(got, ids[1]) {
		t.Errorf("OR filter: %v", got)
	}
	res = post(map[string]any{"limit": 50, "filters": map[string]any{"campaign_id": map[string]any{"conditions": map[string]any{"$not_in": []any{cmp["id"]}}},
		"resource_type": map[string]any{"conditions": map[string]any{"$is": "promotion_tier"}}}})
	if got := qualifiedIDs(res); len(got) != 1 {
		t.Errorf("not_in filter: %v", got)
	}
	res = post(map[string]any{"filters": map[string]any{"resource_type": map[string]any{"conditions": map[string]any{"$is": "voucher"}}}})
	if got := qualifiedIDs(res); len(got) != 0 {
		t.Errorf("voucher filter: %v", got)
	}

	// Sorting by the discount each gives the cart alone.
	res = post(map[string]any{"limit": 2, "sorting_rule": "BEST_DEAL"})
	if got := qualifiedIDs(res); !slices.Equal(got, []string{ids[6], ids[5]}) {
		t.Errorf("BEST_DEAL: %v", got)
	}
	res = post(map[string]any{"limit": 2, "sorting_rule": "LEAST_DEAL"})
	if got := qualifiedIDs(res); !slices.Equal(got, []string{other["promotion"].(map[string]any)["tiers"].([]any)[0].(map[string]any)["id"].(string), ids[0]}) {
		t.Errorf("LEAST_DEAL: %v", got)
	}
}

func TestQualificationBadInputAndNothingWritten(t *testing.T) {
	s := newQualificationShop(t)
	e, app := s.e, s.app
	counts := func() [4]int {
		c := e.DB.Client
		return [4]int{c.Customer.Query().CountX(systemCtx()), c.Order.Query().CountX(systemCtx()),
			c.Redemption.Query().CountX(systemCtx()), c.SessionLock.Query().CountX(systemCtx())}
	}
	before := counts()
	for _, scenario := range []string{"ALL", "PROMOTION_STACKS", "AUDIENCE_ONLY"} {
		s.qualify(t, map[string]any{"scenario": scenario, "order": map[string]any{"source_id": "new-order", "items": cart()["items"]},
			"customer": map[string]any{"source_id": "newcomer", "metadata": map[string]any{"vip": true}},
			"session":  map[string]any{"type": "LOCK"}})
	}
	if after := counts(); after != before {
		t.Errorf("rows before %v, after %v", before, after)
	}
	for name, body := range map[string]map[string]any{
		"limit 51":         {"options": map[string]any{"limit": 51}},
		"limit 0":          {"options": map[string]any{"limit": 0}},
		"unknown scenario": {"scenario": "EVERYTHING"},
		"unknown field":    {"options": map[string]any{"filters": map[string]any{"price": map[string]any{"conditions": map[string]any{"$is": "1"}}}}},
		"unknown operator": {"options": map[string]any{"filters": map[string]any{"code": map[string]any{"conditions": map[string]any{"$like": "A"}}}}},
		"bad junction":     {"options": map[string]any{"filters": map[string]any{"junction": "XOR"}}},
		"bad expand":       {"options": map[string]any{"expand": []string{"everything"}}},
		"bad sorting":      {"options": map[string]any{"sorting_rule": "RANDOM"}},
		"bad cursor":       {"options": map[string]any{"starting_after": "yesterday"}},
		"bad quantity":     {"order": map[string]any{"items": []any{map[string]any{"product_id": "p", "quantity": -1, "price": 10}}}},
	} {
		r := e.DoJSON(http.MethodPost, "/v1/qualifications", body, app)
		if got := r.JSON(t); r.Status != http.StatusBadRequest || got["code"] != float64(400) || got["request_id"] == nil {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"customer": map[string]any{"id": "cust_nope"}}, app), "customer", "cust_nope")
}

func TestQualificationClientFormTenancyAndGraphQL(t *testing.T) {
	s := newQualificationShop(t)
	e, app := s.e, s.app
	mk := e.NewManagementKey()
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(e.Project, shopOrigin)
	body := map[string]any{"customer": map[string]any{"source_id": "ann"}, "order": cart(), "options": map[string]any{"limit": 50}}

	// The client form: same engine, held codes only once pages may list codes.
	res := must(t, e.DoJSON(http.MethodPost, "/client/v1/qualifications", body, cl), http.StatusOK)
	if got := s.names(res); !slices.Equal(got, []string{"Big", "Mug", "Pen", "VIP", "VIP pen"}) {
		t.Errorf("client qualification: %v", got)
	}
	clientSettings(t, e, mk, map[string]any{"client_list_vouchers_enabled": true})
	res = must(t, e.DoJSON(http.MethodPost, "/client/v1/qualifications", body, cl), http.StatusOK)
	if got := s.names(res); !slices.Contains(got, "ANN-1") {
		t.Errorf("client qualification with codes listed: %v", got)
	}
	for name, h := range map[string]resttest.Headers{
		"foreign origin": resttest.Client(e.Project, "https://evil.example.net"),
		"no origin":      resttest.Merge(cl, resttest.Headers{"Origin": ""}),
	} {
		if r := e.DoJSON(http.MethodPost, "/client/v1/qualifications", body, h); r.Status != http.StatusForbidden {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/qualifications", map[string]any{"customer": map[string]any{"id": "cust_x"}}, cl),
		http.StatusBadRequest, "invalid_payload", "customer.id")

	// Another project's tiers and codes never appear.
	b := resttest.App(e.NewProject("B"))
	promotionCampaign(t, e, b, "B deals", amountTier("B tier", 100))
	res = must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": cart(), "options": map[string]any{"limit": 50}}, b), http.StatusOK)
	if got := qualifiedIDs(res); len(got) != 1 {
		t.Errorf("project B sees %v", got)
	}
	res = s.qualify(t, map[string]any{"order": cart(), "options": map[string]any{"limit": 50}})
	if got := s.names(res); !slices.Equal(got, []string{"Big", "Mug", "Pen"}) {
		t.Errorf("project A sees %v", got)
	}

	// GraphQL: the same use case.
	r := e.GraphQL(app, `query($in: QualificationsInput!) { qualifications(input: $in) { redeemables { data total hasMore } trackingID } }`,
		map[string]any{"in": map[string]any{"customer": map[string]any{"sourceID": "ann"}, "order": map[string]any{"amount": 6000},
			"scenario": "CUSTOMER_WALLET", "options": map[string]any{"limit": 5}}})
	if len(r.Errors) > 0 {
		t.Fatalf("GraphQL: %+v", r.Errors)
	}
	page := r.Data["qualifications"].(map[string]any)["redeemables"].(map[string]any)
	if num(page["total"]) != 1 || page["data"].([]any)[0].(map[string]any)["id"] != "ANN-1" {
		t.Errorf("GraphQL page: %s", mustJSON(page))
	}
	r = e.GraphQL(app, `query($in: QualificationsInput!) { qualifications(input: $in) { trackingID } }`,
		map[string]any{"in": map[string]any{"options": map[string]any{"limit": 51}}})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("GraphQL limit 51: %+v", r.Errors)
	}
}
