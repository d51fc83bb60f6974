package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestReferralCodeHolders(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	pub := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Refer"},
		"customer": map[string]any{"source_id": "referrer"}}, f.app), http.StatusOK)
	code, referrer := pub["voucher"].(map[string]any)["code"].(string), pub["customer_id"].(string)
	base := "/v1/referrals/" + f.ref + "/members/" + code + "/holders"

	added := must(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"source_id": "ann"},
		map[string]any{"source_id": "ben", "name": "Ben"}}, "metadata": map[string]any{"via": "test"}}, f.app), http.StatusOK)
	hs := added["holders"].([]any)
	first := hs[0].(map[string]any)
	if len(hs) != 2 || first["holder_role"] != "REFEREE" || first["object"] != "redeemable_holder" || first["campaign_id"] != f.ref ||
		first["campaign_type"] != "REFERRAL_PROGRAM" || first["redeemable_object"] != "voucher" || first["metadata"].(map[string]any)["via"] != "test" {
		t.Fatalf("added = %v", added)
	}
	if c := must(t, e.Do(http.MethodGet, "/v1/customers/ben", nil, f.app), http.StatusOK); c["name"] != "Ben" {
		t.Fatalf("the referee was not upserted: %v", c)
	}

	// Refusals write nothing.
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{}}, f.app), http.StatusBadRequest, "invalid_payload")
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"source_id": "cat"},
		map[string]any{"source_id": "ann"}}}, f.app), http.StatusConflict, "holder_assignement_duplication")
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"source_id": "dan"},
		map[string]any{"source_id": "dan"}}}, f.app), http.StatusConflict, "duplicate_found")
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"id": referrer}}}, f.app),
		http.StatusConflict, "holder_assignement_duplication")
	unpublished := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Refer/vouchers", map[string]any{"code": "FRESH"}, f.app), http.StatusOK)["code"].(string)
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/referrals/members/"+unpublished+"/holders", map[string]any{"holders": []any{map[string]any{"source_id": "eve"}}}, f.app),
		http.StatusBadRequest, "not_published")
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/referrals/"+f.points+"/members/"+code+"/holders", map[string]any{"holders": []any{map[string]any{"source_id": "eve"}}}, f.app),
		"campaign", f.points)
	wantNotFound(t, e.Do(http.MethodGet, "/v1/referrals/members/NOPE/holders", nil, f.app), "voucher", "NOPE")

	// The list: the referrer, then the referees; pages by starting_after_id.
	all := must(t, e.Do(http.MethodGet, base, nil, f.app), http.StatusOK)
	data := all["data"].([]any)
	if num(all["total"]) != 3 || len(data) != 3 || all["has_more"] != false || data[0].(map[string]any)["holder_role"] != "REFERRER" ||
		data[0].(map[string]any)["customer_id"] != referrer {
		t.Fatalf("holders = %v", all)
	}
	page1 := must(t, e.Do(http.MethodGet, "/v1/referrals/members/"+code+"/holders?limit=2", nil, f.app), http.StatusOK)
	last := page1["data"].([]any)[1].(map[string]any)["id"].(string)
	page2 := must(t, e.Do(http.MethodGet, "/v1/referrals/members/"+code+"/holders?limit=2&starting_after_id="+last, nil, f.app), http.StatusOK)
	if page1["has_more"] != true || len(page2["data"].([]any)) != 1 || page2["has_more"] != false ||
		page2["data"].([]any)[0].(map[string]any)["id"] != data[2].(map[string]any)["id"] {
		t.Fatalf("pages: %v / %v", page1, page2)
	}
	wantErrorKey(t, e.Do(http.MethodGet, base+"?limit=0", nil, f.app), http.StatusBadRequest, "invalid_query_params")
	referees := must(t, e.Do(http.MethodGet, base+"?filters[holder_role][conditions][$is]=REFEREE", nil, f.app), http.StatusOK)
	referrers := must(t, e.Do(http.MethodGet, base+"?filters[holder_role][conditions][$is]=REFERRER", nil, f.app), http.StatusOK)
	if num(referees["total"]) != 2 || referees["data"].([]any)[0].(map[string]any)["holder_role"] != "REFEREE" ||
		num(referrers["total"]) != 1 || len(referrers["data"].([]any)) != 1 || referrers["data"].([]any)[0].(map[string]any)["customer_id"] != referrer {
		t.Fatalf("by role: %v / %v", referees, referrers)
	}

	// Removing: a referee yes, the referrer no.
	wantErrorKey(t, e.Do(http.MethodDelete, base+"/"+data[0].(map[string]any)["id"].(string), nil, f.app), http.StatusForbidden, "forbidden")
	referee := data[1].(map[string]any)["id"].(string)
	mustNoContent(t, e.Do(http.MethodDelete, "/v1/referrals/members/"+code+"/holders/"+referee, nil, f.app))
	wantNotFound(t, e.Do(http.MethodDelete, base+"/"+referee, nil, f.app), "redeemable_holder", referee)
	if l := must(t, e.Do(http.MethodGet, base, nil, f.app), http.StatusOK); num(l["total"]) != 2 {
		t.Fatalf("after the removal: %v", l)
	}

	// Another project sees none of it.
	other := resttest.App(e.NewProject("other"))
	wantNotFound(t, e.Do(http.MethodGet, "/v1/referrals/members/"+code+"/holders", nil, other), "voucher", code)

	// GraphQL: the same use case.
	got := e.GraphQL(f.app, `query($m: ID!) { referralHolders(member: $m, input: {holderRole: "REFEREE"}) { total hasMore data { holderRole customerID } } }`, map[string]any{"m": code})
	if len(got.Errors) > 0 || got.Data["referralHolders"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("referralHolders: %+v %v", got.Errors, got.Data)
	}
}
