package referrals_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestReferralCodeHolders(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)
	pub := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Refer"},
		"customer": map[string]any{"source_id": "referrer"}}, f.App), http.StatusOK)
	code, referrer := pub["voucher"].(map[string]any)["code"].(string), pub["customer_id"].(string)
	base := "/v1/referrals/" + f.Ref + "/members/" + code + "/holders"

	added := resttest.Must(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"source_id": "ann"},
		map[string]any{"source_id": "ben", "name": "Ben"}}, "metadata": map[string]any{"via": "test"}}, f.App), http.StatusOK)
	hs := added["holders"].([]any)
	first := hs[0].(map[string]any)
	if len(hs) != 2 || first["holder_role"] != "REFEREE" || first["object"] != "redeemable_holder" || first["campaign_id"] != f.Ref ||
		first["campaign_type"] != "REFERRAL_PROGRAM" || first["redeemable_object"] != "voucher" || first["metadata"].(map[string]any)["via"] != "test" {
		t.Fatalf("added = %v", added)
	}
	if c := resttest.Must(t, e.Do(http.MethodGet, "/v1/customers/ben", nil, f.App), http.StatusOK); c["name"] != "Ben" {
		t.Fatalf("the referee was not upserted: %v", c)
	}

	// Refusals write nothing.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{}}, f.App), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"source_id": "cat"},
		map[string]any{"source_id": "ann"}}}, f.App), http.StatusConflict, "holder_assignement_duplication")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"source_id": "dan"},
		map[string]any{"source_id": "dan"}}}, f.App), http.StatusConflict, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"holders": []any{map[string]any{"id": referrer}}}, f.App),
		http.StatusConflict, "holder_assignement_duplication")
	unpublished := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Refer/vouchers", map[string]any{"code": "FRESH"}, f.App), http.StatusOK)["code"].(string)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/referrals/members/"+unpublished+"/holders", map[string]any{"holders": []any{map[string]any{"source_id": "eve"}}}, f.App),
		http.StatusBadRequest, "not_published")
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/referrals/"+f.Points+"/members/"+code+"/holders", map[string]any{"holders": []any{map[string]any{"source_id": "eve"}}}, f.App),
		"campaign", f.Points)
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/referrals/members/NOPE/holders", nil, f.App), "voucher", "NOPE")

	// The list: the referrer, then the referees; pages by starting_after_id.
	all := resttest.Must(t, e.Do(http.MethodGet, base, nil, f.App), http.StatusOK)
	data := all["data"].([]any)
	if num(all["total"]) != 3 || len(data) != 3 || all["has_more"] != false || data[0].(map[string]any)["holder_role"] != "REFERRER" ||
		data[0].(map[string]any)["customer_id"] != referrer {
		t.Fatalf("holders = %v", all)
	}
	page1 := resttest.Must(t, e.Do(http.MethodGet, "/v1/referrals/members/"+code+"/holders?limit=2", nil, f.App), http.StatusOK)
	last := page1["data"].([]any)[1].(map[string]any)["id"].(string)
	page2 := resttest.Must(t, e.Do(http.MethodGet, "/v1/referrals/members/"+code+"/holders?limit=2&starting_after_id="+last, nil, f.App), http.StatusOK)
	if page1["has_more"] != true || len(page2["data"].([]any)) != 1 || page2["has_more"] != false ||
		page2["data"].([]any)[0].(map[string]any)["id"] != data[2].(map[string]any)["id"] {
		t.Fatalf("pages: %v / %v", page1, page2)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"?limit=0", nil, f.App), http.StatusBadRequest, "invalid_query_params")
	referees := resttest.Must(t, e.Do(http.MethodGet, base+"?filters[holder_role][conditions][$is]=REFEREE", nil, f.App), http.StatusOK)
	referrers := resttest.Must(t, e.Do(http.MethodGet, base+"?filters[holder_role][conditions][$is]=REFERRER", nil, f.App), http.StatusOK)
	if num(referees["total"]) != 2 || referees["data"].([]any)[0].(map[string]any)["holder_role"] != "REFEREE" ||
		num(referrers["total"]) != 1 || len(referrers["data"].([]any)) != 1 || referrers["data"].([]any)[0].(map[string]any)["customer_id"] != referrer {
		t.Fatalf("by role: %v / %v", referees, referrers)
	}

	// Removing: a referee yes, the referrer no.
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, base+"/"+data[0].(map[string]any)["id"].(string), nil, f.App), http.StatusForbidden, "forbidden")
	referee := data[1].(map[string]any)["id"].(string)
	resttest.MustNoContent(t, e.Do(http.MethodDelete, "/v1/referrals/members/"+code+"/holders/"+referee, nil, f.App))
	resttest.WantNotFound(t, e.Do(http.MethodDelete, base+"/"+referee, nil, f.App), "redeemable_holder", referee)
	if l := resttest.Must(t, e.Do(http.MethodGet, base, nil, f.App), http.StatusOK); num(l["total"]) != 2 {
		t.Fatalf("after the removal: %v", l)
	}

	// Another project sees none of it.
	other := resttest.App(e.NewProject("other"))
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/referrals/members/"+code+"/holders", nil, other), "voucher", code)

	// GraphQL: the same use case.
	got := e.GraphQL(f.App, `query($m: ID!) { referralHolders(member: $m, input: {holderRole: "REFEREE"}) { total hasMore data { holderRole customerID } } }`, map[string]any{"m": code})
	if len(got.Errors) > 0 || got.Data["referralHolders"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("referralHolders: %+v %v", got.Errors, got.Data)
	}
}

// num is a JSON number (0 when v is not one).
func num(v any) float64 { f, _ := v.(float64); return f }
