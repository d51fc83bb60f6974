package loyaltyv1_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestV1LoyaltyMembersAndBalance(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Club", 100)["id"].(string)
	card := resttest.AddV1Member(t, e, app, id, "alice")
	code := card["code"].(string)
	if !strings.HasPrefix(code, "LC-") || card["type"] != "LOYALTY_CARD" || card["holder_id"] == nil || card["campaign_id"] != id {
		t.Fatalf("card %v", card)
	}
	if lc := card["loyalty_card"].(map[string]any); lc["points"] != float64(100) || lc["balance"] != float64(100) || lc["expiration_rules"] != nil {
		t.Errorf("new card %v", lc)
	}
	// The same customer again: the program is join_once.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/members", map[string]any{"customer": map[string]any{"source_id": "alice"}}, app),
		400, "voucher_cannot_be_published")
	bob := resttest.AddV1Member(t, e, app, id, "bob")

	// Get, with and without the program; list, by customer.
	for _, path := range []string{"/v1/loyalties/" + id + "/members/" + code, "/v1/loyalties/members/" + code} {
		if got := resttest.MustOK(t, e, http.MethodGet, path, nil, app); got["id"] != card["id"] {
			t.Errorf("%s: %v", path, got)
		}
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/members/NOPE", nil, app), 404, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/nope/members/"+code, nil, app), 404, "not_found")
	list := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members", nil, app)
	if list["total"] != float64(2) || list["data_ref"] != "vouchers" {
		t.Errorf("members %v", list)
	}
	byCustomer := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members?customer=alice", nil, app)
	if vs := byCustomer["vouchers"].([]any); len(vs) != 1 || vs[0].(map[string]any)["code"] != code {
		t.Errorf("by customer %v", byCustomer)
	}

	// Balance: add, subtract, refuse more than the balance and bad numbers.
	add := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 88, "reason": "welcome"}, app)
	if add["points"] != float64(88) || add["total"] != float64(188) || add["balance"] != float64(188) || add["object"] != "balance" ||
		add["type"] != "loyalty_card" || add["operation_type"] != "MANUAL" || add["related_object"].(map[string]any)["id"] != card["id"] {
		t.Errorf("add %v", add)
	}
	sub := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members/"+code+"/balance", map[string]any{"points": -38}, app)
	if sub["points"] != float64(-38) || sub["balance"] != float64(150) || sub["total"] != float64(150) {
		t.Errorf("subtract %v", sub)
	}
	for name, body := range map[string]string{
		"more than the balance": `{"points": -151}`,
		"non-integer":           `{"points": 1.5}`,
		"string":                `{"points": "ten"}`,
		"huge":                  `{"points": 100000000000000000000}`,
		"beyond max":            `{"points": 9007199254740992}`,
		"zero":                  `{"points": 0}`,
		"missing":               `{}`,
		"bad expiration type":   `{"points": 1, "expiration_type": "SOON"}`,
		"bad date":              `{"points": 1, "expiration_type": "CUSTOM_DATE", "expiration_date": "tomorrow"}`,
		"past date":             `{"points": 1, "expiration_type": "CUSTOM_DATE", "expiration_date": "2001-01-01"}`,
	} {
		r := e.Do(http.MethodPost, "/v1/loyalties/members/"+code+"/balance", []byte(body), app)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	got := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)
	if lc := got["loyalty_card"].(map[string]any); lc["balance"] != float64(150) || lc["subtracted_points"] != float64(38) {
		t.Errorf("after refused moves %v", lc)
	}
	txs := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions", nil, app)
	data := txs["data"].([]any)
	if len(data) != 2 || txs["has_more"] != false {
		t.Fatalf("transactions %v", txs)
	}
	first := data[0].(map[string]any)
	if first["type"] != "POINTS_REMOVAL" || data[1].(map[string]any)["type"] != "POINTS_ADDITION" ||
		first["details"].(map[string]any)["balance"].(map[string]any)["balance"] != float64(150) {
		t.Errorf("transactions %v", data)
	}
	asc := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?order=id&limit=1", nil, app)
	if asc["has_more"] != true || asc["data"].([]any)[0].(map[string]any)["type"] != "POINTS_ADDITION" {
		t.Errorf("ascending page %v", asc)
	}

	// An unpublished card cannot move points; another project's card is 404.
	resttest.MustOK(t, e, http.MethodPost, "/v1/campaigns/"+id+"/vouchers/FREE-1", nil, app)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/members/FREE-1/balance", map[string]any{"points": 5}, app), 400, "loyalty_card_not_published")
	other := resttest.App(e.NewProject("other"))
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/members/"+code, nil, other), 404, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 5}, other), 404, "not_found")

	// Transfers: bob gets 40 of alice's points; more than she has is refused.
	bobCode := bob["code"].(string)
	dest := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members/"+bobCode+"/transfers",
		[]any{map[string]any{"code": code, "points": 40, "reason": "gift"}}, app)
	if lc := dest["loyalty_card"].(map[string]any); lc["balance"] != float64(140) {
		t.Errorf("destination after transfer %v", lc)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/members/"+bobCode+"/transfers",
		[]any{map[string]any{"code": code, "points": 111}}, app), 400, "loyalty_card_points_exceeded")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/members/"+bobCode+"/transfers",
		[]any{map[string]any{"code": code, "points": -1}}, app), 400, "invalid_payload")
	alice := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)
	if lc := alice["loyalty_card"].(map[string]any); lc["balance"] != float64(110) {
		t.Errorf("source after transfer %v", lc)
	}
	prgTx := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/transactions?limit=2", nil, app)
	pair := prgTx["data"].([]any)
	out, in := pair[0].(map[string]any), pair[1].(map[string]any)
	if out["type"] != "POINTS_TRANSFER_OUT" || in["type"] != "POINTS_TRANSFER_IN" || out["related_transaction_id"] != in["id"] ||
		prgTx["has_more"] != true || prgTx["more_starting_after"] != out["id"] && prgTx["more_starting_after"] != in["id"] {
		t.Errorf("program transactions %v", prgTx)
	}

	// Export and activity.
	exp := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/transactions/export", nil, app)
	if exp["exported_object"] != "voucher_transactions" || exp["status"] != "SCHEDULED" {
		t.Errorf("export %v", exp)
	}
	act := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/activity", nil, app)
	if data := act["data"].([]any); len(data) == 0 || data[len(data)-1].(map[string]any)["type"] != "customer.publication.succeeded" {
		t.Errorf("activity %v", act)
	}
	if acts := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/activities", nil, app); acts["data_ref"] != "activities" {
		t.Errorf("activities %v", acts)
	}
}

func TestV1LoyaltyMemberThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	res := e.GraphQL(app, `mutation { createLoyaltyV1Program(input: {name: "G", voucher: {type: LOYALTY_CARD, loyaltyCard: {points: 7}}}) { id campaignType joinOnce } }`, nil)
	if len(res.Errors) > 0 {
		t.Fatalf("create: %v", res.Errors)
	}
	prg := res.Data["createLoyaltyV1Program"].(map[string]any)
	id := prg["id"].(string)
	card := resttest.AddV1Member(t, e, app, id, "carol")
	res = e.GraphQL(app, `mutation($c: String!) { adjustLoyaltyV1MemberBalance(code: $c, input: {points: -8}) { balance } }`,
		map[string]any{"c": card["code"]})
	if len(res.Errors) != 1 || res.Errors[0].Extensions["key"] != "invalid_amount" {
		t.Errorf("over-subtraction over GraphQL: %+v", res)
	}
	res = e.GraphQL(app, `mutation($c: String!) { adjustLoyaltyV1MemberBalance(code: $c, input: {points: 3}) { points total balance } }`,
		map[string]any{"c": card["code"]})
	if len(res.Errors) > 0 || res.Data["adjustLoyaltyV1MemberBalance"].(map[string]any)["balance"] != float64(10) {
		t.Errorf("add over GraphQL: %+v", res)
	}
	res = e.GraphQL(app, `query($p: String!) { loyaltyV1MemberList(program: $p) { total data { code } } loyaltyV1Program(idOrName: $p) { name } }`,
		map[string]any{"p": id})
	if len(res.Errors) > 0 || res.Data["loyaltyV1MemberList"].(map[string]any)["total"] != float64(1) {
		t.Errorf("list over GraphQL: %+v", res)
	}
}
