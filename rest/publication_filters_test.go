package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// publicationFilterFixture publishes, oldest first: Disc codes to ann
// (source_id s1) and bob, the Points loyalty card CARD-2 named to cid,
// CARD-1 drawn from the campaign to ann, the referral code REF-1 to bob,
// the standalone LONE-1 to cid and a Disc code to dee.
func publicationFilterFixture(t *testing.T, e *resttest.Env, app resttest.Headers) {
	t.Helper()
	staticCampaign(t, e, "Disc", "D-1", "D-2", "D-3")
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Points", "campaign_type": "LOYALTY_PROGRAM", "type": "STATIC",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 100}}}, app), http.StatusOK)
	for _, code := range []string{"CARD-1", "CARD-2"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Points/vouchers", map[string]any{"code": code}, app), http.StatusOK)
	}
	createCampaign(t, e, map[string]any{"name": "Refer", "campaign_type": "REFERRAL_PROGRAM", "type": "STATIC",
		"referral_program": map[string]any{"conversion_event_type": "signed_up"},
		"voucher":          map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}})
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Refer/vouchers", map[string]any{"code": "REF-1"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/LONE-1", map[string]any{"type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 500}}, app), http.StatusOK)
	for _, p := range []map[string]any{
		{"campaign": map[string]any{"name": "Disc"}, "customer": map[string]any{"source_id": "ann"}, "source_id": "s1"},
		{"campaign": map[string]any{"name": "Disc"}, "customer": map[string]any{"source_id": "bob"}},
		{"voucher": "CARD-2", "customer": map[string]any{"source_id": "cid"}},
		{"campaign": map[string]any{"name": "Points"}, "customer": map[string]any{"source_id": "ann"}}, // CARD-1, the one left
		{"voucher": "REF-1", "customer": map[string]any{"source_id": "bob"}},
		{"voucher": "LONE-1", "customer": map[string]any{"source_id": "cid"}},
		{"campaign": map[string]any{"name": "Disc"}, "customer": map[string]any{"source_id": "dee"}},
	} {
		must(t, e.DoJSON(http.MethodPost, "/v1/publications", p, app), http.StatusOK)
		waitABit()
	}
}

// listedPublications is a page of GET /v1/publications?query (checked
// against the reference document): who got what, newest first, and the
// total.
func listedPublications(t *testing.T, e *resttest.Env, app resttest.Headers, query string) (entries []string, total int) {
	t.Helper()
	var page struct {
		Publications []struct {
			Customer struct {
				SourceID string `json:"source_id"`
			}
			Voucher *struct{ Code string }
		}
		Total int
	}
	if err := json.Unmarshal([]byte(checkedGet(t, e, app, "/v1/publications?"+query)), &page); err != nil {
		t.Fatal(err)
	}
	for _, p := range page.Publications {
		code := "-"
		if p.Voucher != nil {
			code = p.Voucher.Code
			if strings.HasPrefix(code, "D-") {
				code = "D" // which code of the campaign was picked is random
			}
		}
		entries = append(entries, p.Customer.SourceID+":"+code)
	}
	return entries, page.Total
}

// TestPublicationListFilters: voucher_type, is_referral_code and every
// documented filters[…] field of GET /v1/publications keep what they name
// and nothing else, alone, together (junction and, or) and across pages;
// a bad value is a 400 in the error shape.
func TestPublicationListFilters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	publicationFilterFixture(t, e, app)
	other := resttest.App(e.NewProject("other")) // another project's loyalty publication is never listed
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Points", "campaign_type": "LOYALTY_PROGRAM", "type": "STATIC",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 1}}}, other), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Points/vouchers", map[string]any{"code": "O-CARD"}, other), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "O-CARD", "customer": map[string]any{"source_id": "ann"}}, other), http.StatusOK)

	all := []string{"dee:D", "cid:LONE-1", "bob:REF-1", "ann:CARD-1", "cid:CARD-2", "bob:D", "ann:D"}
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(drop, s) })
	}
	cond := resttest.FilterQuery
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", all},
		{"voucher_type=discount", without("ann:CARD-1", "cid:CARD-2")},
		{"voucher_type=loyalty", []string{"ann:CARD-1", "cid:CARD-2"}},
		{"is_referral_code=true", []string{"bob:REF-1"}},
		{"is_referral_code=false", all}, // the reference: the filter works only for true
		{"voucher_type=discount&is_referral_code=true", []string{"bob:REF-1"}},
		{"voucher_type=loyalty&is_referral_code=true", nil},
		{"voucher_type=discount&customer=cid", []string{"cid:LONE-1"}},
		{"voucher_type=loyalty&campaign=Points", []string{"ann:CARD-1"}}, // CARD-2 was named, not drawn from the campaign
		{cond("voucher_type", "$is", "LOYALTY_CARD"), []string{"ann:CARD-1", "cid:CARD-2"}},
		{cond("voucher_type", "$in", "loyalty", "gift"), []string{"ann:CARD-1", "cid:CARD-2"}},
		{cond("voucher_type", "$is_not", "discount"), []string{"ann:CARD-1", "cid:CARD-2"}},
		{cond("voucher_type", "$not_in", "LOYALTY_CARD", "GIFT_VOUCHER"), without("ann:CARD-1", "cid:CARD-2")},
		{cond("is_referral_code", "$is", "true"), []string{"bob:REF-1"}},
		{cond("is_referral_code", "$is_not", "true"), without("bob:REF-1")},
		{cond("is_referral_code", "$in", "true", "false"), all},
		{cond("campaign_name", "$is", "Disc"), []string{"dee:D", "bob:D", "ann:D"}},
		{cond("campaign_name", "$starts_with", "Po"), []string{"ann:CARD-1"}},
		{cond("campaign_name", "$in", "Points", "Nope"), []string{"ann:CARD-1"}},
		{cond("campaign_name", "$is", "Nope"), nil},
		{cond("campaign_name", "$is_not", "Disc"), []string{"ann:CARD-1"}},
		{cond("campaign_name", "$is_unknown"), []string{"cid:LONE-1", "bob:REF-1", "cid:CARD-2"}},
		{cond("campaign_name", "$has_value"), []string{"dee:D", "ann:CARD-1", "bob:D", "ann:D"}},
		{cond("result", "$is", "SUCCESS"), all},
		{cond("result", "$is", "FAILURE"), nil},
		{cond("source_id", "$is", "s1"), []string{"ann:D"}},
		{cond("source_id", "$is_not", "s1"), without("ann:D")}, // no source_id is not s1
		{cond("source_id", "$is_unknown"), without("ann:D")},
		{cond("source_id", "$has_value"), []string{"ann:D"}},
		{cond("failure_code", "$is_unknown"), all},
		{cond("failure_code", "$has_value"), nil},
		{cond("failure_code", "$is", "x"), nil},
		{cond("campaign_name", "$is", "Disc") + "&" + cond("voucher_type", "$is", "loyalty") + "&filters[junction]=or",
			[]string{"dee:D", "ann:CARD-1", "cid:CARD-2", "bob:D", "ann:D"}},
		{cond("campaign_name", "$is", "Disc") + "&" + cond("voucher_type", "$is", "loyalty") + "&filters[junction]=AND", nil},
		{cond("campaign_name", "$is", "Disc") + "&customer=bob", []string{"bob:D"}},
	} {
		got, total := listedPublications(t, e, app, tc.query+"&limit=100")
		if !slices.Equal(got, tc.want) || total != len(tc.want) {
			t.Errorf("?%s: %v (total %d), want %v", tc.query, got, total, tc.want)
		}
	}

	// Pages of a filtered list: each shows the filter's total and its own
	// slice of the whole filtered list, in order.
	discount := without("ann:CARD-1", "cid:CARD-2")
	for pg := 1; pg <= 4; pg++ {
		got, total := listedPublications(t, e, app, "voucher_type=discount&limit=2&page="+strconv.Itoa(pg))
		want := discount[min(len(discount), (pg-1)*2):min(len(discount), pg*2)]
		if !slices.Equal(got, want) || total != len(discount) {
			t.Errorf("voucher_type=discount page %d: %v (total %d), want %v (total %d)", pg, got, total, want, len(discount))
		}
	}
	got, total := listedPublications(t, e, app, cond("campaign_name", "$has_value")+"&order=created_at&limit=3&page=2")
	if !slices.Equal(got, []string{"dee:D"}) || total != 4 {
		t.Errorf("campaign_name $has_value, oldest first, page 2 of 3: %v (total %d)", got, total)
	}

	for query, want := range map[string]string{
		"voucher_type=gift":                           "voucher_type",
		"voucher_type=DISCOUNT":                       "voucher_type",
		"is_referral_code=maybe":                      "is_referral_code",
		cond("voucher_type", "$is", "coupon"):         "voucher_type",
		cond("voucher_type", "$starts_with", "disc"):  "voucher_type",
		cond("is_referral_code", "$is", "yes"):        "is_referral_code",
		cond("parent_object_id", "$is", "camp_1"):     "parent_object_id",
		cond("related_object_id", "$is", "v_1"):       "related_object_id",
		cond("nope", "$is", "x"):                      "nope",
		cond("campaign_name", "$after", "2024-01-01"): "campaign_name",
		cond("failure_code", "$after", "2024-01-01"):  "failure_code",
		"filters[junction]=xor":                       "junction",
		"filters[voucher_type]=loyalty":               "voucher_type",
	} {
		wantError(t, e.Do(http.MethodGet, "/v1/publications?"+query, nil, app), http.StatusBadRequest, "invalid_query_params", want)
	}

	// GraphQL's publicationList takes the same filters (one rule).
	gql := e.GraphQL(app, `query($f: Map) { publicationList(input: {voucherType: "loyalty", filters: $f}) { total } }`,
		map[string]any{"f": map[string]any{"campaign_name": map[string]any{"conditions": map[string]any{"$has_value": ""}}}})
	if len(gql.Errors) > 0 || gql.Data["publicationList"].(map[string]any)["total"] != float64(1) {
		t.Errorf("publicationList(voucherType: loyalty, campaign_name has a value) = %+v", gql)
	}
	gql = e.GraphQL(app, `{ publicationList(input: {isReferralCode: true}) { total } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["publicationList"].(map[string]any)["total"] != float64(1) {
		t.Errorf("publicationList(isReferralCode: true) = %+v", gql)
	}
	gql = e.GraphQL(app, `{ publicationList(input: {voucherType: "gift"}) { total } }`, nil)
	if len(gql.Errors) == 0 || !strings.Contains(gql.Errors[0].Message, "voucher_type") {
		t.Errorf("publicationList(voucherType: gift) = %+v, want an error", gql)
	}

	// A standalone code shows "campaign": null, live and from its
	// snapshot once deleted (checked against the reference by
	// listedPublications); a deleted code's publication has no links
	// left, so a filter on what was published no longer keeps it.
	standalone := func() any {
		t.Helper()
		var page struct {
			Publications []struct{ Voucher map[string]any }
		}
		if err := json.Unmarshal([]byte(checkedGet(t, e, app, "/v1/publications?customer=cid&limit=1")), &page); err != nil ||
			len(page.Publications) != 1 || page.Publications[0].Voucher["code"] != "LONE-1" {
			t.Fatalf("cid's newest publication: %+v %v", page, err)
		}
		campaign, ok := page.Publications[0].Voucher["campaign"]
		if !ok {
			t.Fatalf("cid's LONE-1 has no campaign member: %v", page.Publications[0].Voucher)
		}
		return campaign
	}
	if c := standalone(); c != nil {
		t.Errorf("live LONE-1 shows campaign %v, want null", c)
	}
	if r := e.Do(http.MethodDelete, "/v1/vouchers/LONE-1?force=true", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE LONE-1: %d %s", r.Status, r.Body)
	}
	if c := standalone(); c != nil {
		t.Errorf("deleted LONE-1 shows campaign %v, want null", c)
	}
	if got, _ := listedPublications(t, e, app, "voucher_type=discount&customer=cid"); got != nil {
		t.Errorf("voucher_type=discount&customer=cid after LONE-1's deletion: %v, want none", got)
	}
}
