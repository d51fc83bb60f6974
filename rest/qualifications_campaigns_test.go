package rest_test

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// campaignShop is a project with code campaigns of every kind the
// qualification lists as campaigns (docs/qualifications.md "Campaigns as
// redeemables"), and some it does not.
type campaignShop struct {
	*legacyShop
	coupons, gifts, vips, big, empty, off, referral string // campaign ids
	tier                                            string
}

func newCampaignShop(t *testing.T) *campaignShop {
	t.Helper()
	s := &campaignShop{legacyShop: newLegacyShop(t)}
	e, app := s.e, s.app
	create := func(body map[string]any, codes ...string) string {
		t.Helper()
		cmp := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", body, app), http.StatusOK)
		for _, code := range codes {
			must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+cmp["id"].(string)+"/vouchers", map[string]any{"code": code}, app), http.StatusOK)
		}
		waitABit() // distinct created_at: the cursor is a date
		return cmp["id"].(string)
	}
	coupon := func(name string, off int) map[string]any {
		return map[string]any{"name": name, "campaign_type": "DISCOUNT_COUPONS", "type": "STATIC", "metadata": map[string]any{"kind": name},
			"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": off}}}
	}
	cat := createCategory(t, e, app, "Seasonal", 1)
	body := coupon("Coupons", 300)
	body["category_id"] = cat["id"]
	s.coupons = create(body, "CPN-1", "CPN-2", "CPN-BOB")
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "bob"},
		"voucher": "CPN-BOB"}, app), http.StatusOK)
	s.gifts = create(map[string]any{"name": "Gifts", "campaign_type": "GIFT_VOUCHERS", "type": "STATIC",
		"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 2000}}}, "GFT-1")
	s.vips = create(coupon("Vips", 500), "VIP-1")
	s.assign(t, s.vip, map[string]any{"campaign": s.vips})
	s.big = create(coupon("Big", 700), "BIG-1")
	s.assign(t, s.legacyShop.big, map[string]any{"campaign": s.big})
	s.empty = create(coupon("Empty", 100))
	s.off = create(coupon("Off", 100), "OFF-1")
	must(t, e.Do(http.MethodPost, "/v1/campaigns/"+s.off+"/disable", nil, app), http.StatusOK)
	_, tiers := promotionCampaign(t, e, app, "Cart", amountTier("Tier", 50))
	s.tier = tiers[0]["id"].(string)
	waitABit()
	s.standalone(t, app, "ANY") // a generic code: listed as a voucher
	return s
}

// qualify posts a qualification and returns its entries.
func (s *campaignShop) qualify(t *testing.T, h resttest.Headers, path string, body map[string]any) []map[string]any {
	t.Helper()
	res := must(t, s.e.DoJSON(http.MethodPost, path, body, h), http.StatusOK)
	var out []map[string]any
	for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// campaignIDs are the ids of the campaign entries, sorted.
func campaignIDs(entries []map[string]any) []string {
	var out []string
	for _, q := range entries {
		if q["object"] == "campaign" {
			out = append(out, q["id"].(string))
		}
	}
	sort.Strings(out)
	return out
}

func sorted(ids ...string) []string {
	out := slices.Clone(ids)
	sort.Strings(out)
	return out
}

// TestQualificationListsCampaigns: ALL lists, beside tiers and codes, the
// code campaigns whose codes are meant to be published and of which the
// customer holds none, checked through a code held by nobody (rules
// included) and computed alone on the order; AUDIENCE_ONLY checks their
// customer conditions only; the other scenarios list none.
func TestQualificationListsCampaigns(t *testing.T) {
	s := newCampaignShop(t)
	app := s.app
	body := func(who string, amount int, scenario string, options map[string]any) map[string]any {
		b := map[string]any{"order": map[string]any{"amount": amount}, "scenario": scenario, "options": options}
		if who != "" {
			b["customer"] = map[string]any{"source_id": who}
		}
		return b
	}
	all := map[string]any{"limit": 50}
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		// Ann is a VIP: the Vips campaign's rule holds; Big needs a big cart.
		{"ann, small cart", body("ann", 1000, "ALL", all), sorted(s.coupons, s.gifts, s.vips)},
		{"ann, big cart", body("ann", 6000, "ALL", all), sorted(s.coupons, s.gifts, s.vips, s.big)},
		// Bob holds a Coupons code: the code is listed, not the campaign.
		{"bob, big cart", body("bob", 6000, "ALL", all), sorted(s.gifts, s.big)},
		{"nobody, big cart", body("", 6000, "ALL", all), sorted(s.coupons, s.gifts, s.big)},
		// Customer conditions only: Big's cart rule is left out.
		{"ann, audience", body("ann", 1000, "AUDIENCE_ONLY", all), sorted(s.coupons, s.gifts, s.vips, s.big)},
		{"bob, audience", body("bob", 1000, "AUDIENCE_ONLY", all), sorted(s.gifts, s.big)},
		{"wallet", body("bob", 6000, "CUSTOMER_WALLET", all), nil},
		{"products", body("ann", 6000, "PRODUCTS", all), nil},
		{"stacks", body("ann", 6000, "PROMOTION_STACKS", all), nil},
	} {
		if got := campaignIDs(s.qualify(t, app, "/v1/qualifications", c.body)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}

	// Bob's own code is his entry for the Coupons offer.
	entries := s.qualify(t, app, "/v1/qualifications", body("bob", 6000, "ALL", all))
	if !slices.ContainsFunc(entries, func(q map[string]any) bool { return q["id"] == "CPN-BOB" }) {
		t.Errorf("bob's code is not listed: %s", mustJSON(entries))
	}

	// The entry: the campaign's id, date, metadata and category; the
	// discount computed alone; no code shown; name with expand redeemable,
	// never campaign_id / campaign_name.
	entries = s.qualify(t, app, "/v1/qualifications", body("ann", 6000, "ALL", map[string]any{"limit": 50,
		"expand": []any{"redeemable", "validation_rules"}}))
	var coupons map[string]any
	for _, q := range entries {
		if q["id"] == s.coupons {
			coupons = q
		}
	}
	cmp := must(t, s.e.Do(http.MethodGet, "/v1/campaigns/"+s.coupons, nil, app), http.StatusOK)
	switch {
	case coupons == nil:
		t.Fatalf("Coupons not listed: %s", mustJSON(entries))
	case coupons["object"] != "campaign" || coupons["created_at"] != cmp["created_at"] || coupons["name"] != "Coupons":
		t.Errorf("entry: %s", mustJSON(coupons))
	case coupons["campaign_id"] != nil || coupons["campaign_name"] != nil:
		t.Errorf("campaign_id/campaign_name on a campaign: %s", mustJSON(coupons))
	case coupons["metadata"].(map[string]any)["kind"] != "Coupons":
		t.Errorf("metadata: %s", mustJSON(coupons["metadata"]))
	case len(coupons["categories"].([]any)) != 1 || coupons["categories"].([]any)[0].(map[string]any)["name"] != "Seasonal":
		t.Errorf("categories: %s", mustJSON(coupons["categories"]))
	case num(coupons["order"].(map[string]any)["total_amount"]) != 5700:
		t.Errorf("order: %s", mustJSON(coupons["order"]))
	case coupons["result"].(map[string]any)["discount"].(map[string]any)["amount_off"] != float64(300):
		t.Errorf("result: %s", mustJSON(coupons["result"]))
	case strings.Contains(mustJSON(coupons), "CPN-"):
		t.Errorf("a code is shown: %s", mustJSON(coupons))
	}
	for _, q := range entries {
		if q["id"] == s.big {
			list := q["validation_rules_assignments"].(map[string]any)["data"].([]any)
			if len(list) != 1 || list[0].(map[string]any)["related_object_id"] != s.big {
				t.Errorf("Big's assignments: %s", mustJSON(q["validation_rules_assignments"]))
			}
		}
	}

	// A campaign whose codes are all held is not listed (nothing to check
	// it through); once its last free code is published, nor is Gifts.
	must(t, s.e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "bob"},
		"voucher": "GFT-1"}, app), http.StatusOK)
	if got := campaignIDs(s.qualify(t, app, "/v1/qualifications", body("ann", 6000, "ALL", all))); slices.Contains(got, s.gifts) {
		t.Errorf("Gifts without a free code: %v", got)
	}

	// GraphQL: the same use case.
	r := s.e.GraphQL(app, `query($in: QualificationsInput!) { qualifications(input: $in) { redeemables { data total } } }`,
		map[string]any{"in": map[string]any{"customer": map[string]any{"sourceID": "ann"}, "order": map[string]any{"amount": 6000},
			"options": map[string]any{"limit": 50, "filters": map[string]any{"resource_type": map[string]any{
				"conditions": map[string]any{"$is": "campaign"}}}}}})
	if len(r.Errors) > 0 {
		t.Fatalf("GraphQL: %+v", r.Errors)
	}
	var got []map[string]any
	for _, x := range r.Data["qualifications"].(map[string]any)["redeemables"].(map[string]any)["data"].([]any) {
		got = append(got, x.(map[string]any))
	}
	if ids := campaignIDs(got); len(got) != 3 || !slices.Equal(ids, sorted(s.coupons, s.vips, s.big)) {
		t.Errorf("GraphQL campaigns: %s", mustJSON(got))
	}
}

// TestQualificationCampaignFiltersAndPaging: resource_type, campaign_id
// and campaign_type filters apply to campaigns, code, voucher_type and
// holder_role conditions leave them out; pages by the starting_after
// cursor walk tiers, codes and campaigns newest first, each once; the
// client form lists campaigns (they show no code).
func TestQualificationCampaignFiltersAndPaging(t *testing.T) {
	s := newCampaignShop(t)
	app := s.app
	filtered := func(filters map[string]any) []map[string]any {
		return s.qualify(t, app, "/v1/qualifications", map[string]any{"customer": map[string]any{"source_id": "ann"},
			"order": map[string]any{"amount": 6000}, "options": map[string]any{"limit": 50, "filters": filters}})
	}
	cond := func(op string, v any) map[string]any { return map[string]any{"conditions": map[string]any{op: v}} }
	for _, c := range []struct {
		name    string
		filters map[string]any
		want    []string // every entry is a campaign
	}{
		{"resource_type campaign", map[string]any{"resource_type": cond("$is", "campaign")}, sorted(s.coupons, s.gifts, s.vips, s.big)},
		{"campaign_type", map[string]any{"campaign_type": cond("$is", "GIFT_VOUCHERS")}, []string{s.gifts}},
		{"campaign_id", map[string]any{"campaign_id": cond("$in", []any{s.vips, s.big})}, sorted(s.vips, s.big)},
		{"resource_id", map[string]any{"resource_id": cond("$is", s.coupons)}, []string{s.coupons}},
		{"category", map[string]any{"category_id": cond("$has_value", nil)}, []string{s.coupons}},
		{"code", map[string]any{"code": cond("$is_unknown", nil), "resource_type": cond("$is", "campaign")}, nil},
		{"voucher_type", map[string]any{"voucher_type": cond("$is_not", "GIFT_VOUCHER"), "resource_type": cond("$is", "campaign")}, nil},
		{"holder_role", map[string]any{"holder_role": cond("$is_unknown", nil), "resource_type": cond("$is", "campaign")}, nil},
		{"OR brings them in", map[string]any{"junction": "OR", "code": cond("$is", "nothing"), "campaign_type": cond("$is", "GIFT_VOUCHERS")},
			[]string{s.gifts}},
	} {
		got := filtered(c.filters)
		if ids := campaignIDs(got); len(ids) != len(got) || !slices.Equal(ids, c.want) {
			t.Errorf("%s: %s, want %v", c.name, mustJSON(qualifiedIDs(map[string]any{"redeemables": map[string]any{"data": toAny(got)}})), c.want)
		}
	}

	// Pages of two, by the cursor, are the one page of fifty in order.
	ann := map[string]any{"customer": map[string]any{"source_id": "ann"}, "order": map[string]any{"amount": 6000}}
	ann["options"] = map[string]any{"limit": 50}
	var want []string
	for _, q := range s.qualify(t, app, "/v1/qualifications", ann) {
		want = append(want, q["id"].(string))
	}
	if len(want) != 6 || want[0] != "ANY" || want[1] != s.tier || want[5] != s.coupons {
		t.Fatalf("one page: %v", want)
	}
	var paged []string
	options := map[string]any{"limit": 2}
	for page := 0; page < 10; page++ {
		ann["options"] = options
		res := must(t, s.e.DoJSON(http.MethodPost, "/v1/qualifications", ann, app), http.StatusOK)
		paged = append(paged, qualifiedIDs(res)...)
		list := res["redeemables"].(map[string]any)
		if list["has_more"] != true {
			break
		}
		options["starting_after"] = list["more_starting_after"]
	}
	if !slices.Equal(paged, want) {
		t.Errorf("pages: %v, want %v", paged, want)
	}

	// Best deal first: the gift card (2000 credits), Big (700), Vips (500).
	ann["options"] = map[string]any{"limit": 3, "sorting_rule": "BEST_DEAL"}
	if got := qualifiedIDs(must(t, s.e.DoJSON(http.MethodPost, "/v1/qualifications", ann, app), http.StatusOK)); !slices.Equal(got, []string{s.gifts, s.big, s.vips}) {
		t.Errorf("best deal: %v", got)
	}

	// The client form lists campaigns whether or not pages may list codes.
	// While they may not, it does not tell which campaigns bob holds a code
	// of: Coupons is listed as for anyone (bob's code is not).
	mk := s.e.NewManagementKey()
	clientSettings(t, s.e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(s.e.Project, shopOrigin)
	bob := map[string]any{"customer": map[string]any{"source_id": "bob"},
		"order": map[string]any{"amount": 6000}, "options": map[string]any{"limit": 50}}
	got := s.qualify(t, cl, "/client/v1/qualifications", bob)
	if ids := campaignIDs(got); !slices.Equal(ids, sorted(s.coupons, s.gifts, s.big)) || len(got) != 4 {
		t.Errorf("client form, codes not listable: %s", mustJSON(got))
	}
	// Once pages may list codes, bob's code is his Coupons entry.
	clientSettings(t, s.e, mk, map[string]any{"client_list_vouchers_enabled": true})
	got = s.qualify(t, cl, "/client/v1/qualifications", bob)
	if ids := campaignIDs(got); !slices.Equal(ids, sorted(s.gifts, s.big)) ||
		!slices.ContainsFunc(got, func(q map[string]any) bool { return q["id"] == "CPN-BOB" }) {
		t.Errorf("client form, codes listable: %s", mustJSON(got))
	}
}

func toAny(l []map[string]any) []any {
	out := make([]any, len(l))
	for i, x := range l {
		out[i] = x
	}
	return out
}
