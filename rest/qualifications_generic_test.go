package rest_test

import (
	"net/http"
	"slices"
	"sort"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestQualificationListsGenericCodes: scenario ALL lists, beside the
// customer's codes, the generic codes anyone may use (standalone, held by
// nobody, not of a bulk campaign) whose checks pass on the cart; the
// wallet does not; the client form lists them only once pages may list
// codes. The bulk campaign's code is not listed as a code: its campaign
// is (qualifications_campaigns_test.go), left out here by resource_type.
func TestQualificationListsGenericCodes(t *testing.T) {
	s := newLegacyShop(t)
	e, app := s.e, s.app
	s.standalone(t, app, "ANY")
	s.standalone(t, app, "BIG")
	s.assign(t, s.big, map[string]any{"voucher": "BIG"})
	s.standalone(t, app, "BOBS")
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "bob"},
		"voucher": "BOBS"}, app), http.StatusOK)
	s.standalone(t, app, "OFF")
	must(t, e.Do(http.MethodPost, "/v1/vouchers/OFF/disable", nil, app), http.StatusOK)
	discountCode(t, e, app, "Bulk", "BULK-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	codes := func(res map[string]any) []string {
		var out []string
		for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
			q := x.(map[string]any)
			if q["object"] != "voucher" {
				t.Errorf("not a voucher: %v", q)
			}
			out = append(out, q["id"].(string))
		}
		sort.Strings(out)
		return out
	}
	notCampaigns := map[string]any{"resource_type": map[string]any{"conditions": map[string]any{"$is_not": "campaign"}}}
	qualify := func(h resttest.Headers, path string, body map[string]any) []string {
		body["options"] = map[string]any{"limit": 50, "filters": notCampaigns}
		return codes(must(t, e.DoJSON(http.MethodPost, path, body, h), http.StatusOK))
	}
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"ann, big order", who("ann", 6000), []string{"ANY", "BIG"}},
		{"ann, small order", who("ann", 1000), []string{"ANY"}},
		{"bob, small order", who("bob", 1000), []string{"ANY", "BOBS"}},
		{"no customer", map[string]any{"order": map[string]any{"amount": 6000}}, []string{"ANY", "BIG"}},
		{"bob's wallet", map[string]any{"scenario": "CUSTOMER_WALLET", "customer": map[string]any{"source_id": "bob"},
			"order": map[string]any{"amount": 1000}}, []string{"BOBS"}},
		{"held codes only", map[string]any{"customer": map[string]any{"source_id": "bob"}, "order": map[string]any{"amount": 1000},
			"options": nil}, nil},
	} {
		if c.name == "held codes only" {
			c.body["options"] = map[string]any{"limit": 50, "filters": map[string]any{"holder_role": map[string]any{
				"conditions": map[string]any{"$is": []any{"OWNER"}}}}}
			got := codes(must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", c.body, app), http.StatusOK))
			if !slices.Equal(got, []string{"BOBS"}) {
				t.Errorf("%s: %v", c.name, got)
			}
			continue
		}
		if got := qualify(app, "/v1/qualifications", c.body); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}

	// A page's public key lists no code until the project allows it.
	mk := e.NewManagementKey()
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(e.Project, shopOrigin)
	if got := qualify(cl, "/client/v1/qualifications", who("ann", 6000)); len(got) != 0 {
		t.Errorf("client form without listed codes: %v", got)
	}
	clientSettings(t, e, mk, map[string]any{"client_list_vouchers_enabled": true})
	if got := qualify(cl, "/client/v1/qualifications", who("ann", 6000)); !slices.Equal(got, []string{"ANY", "BIG"}) {
		t.Errorf("client form with listed codes: %v", got)
	}
}

// TestQualificationLockedCredits: with session.key, a gift card's entry
// shows the credits that session locked on it (result.gift.locked_credits);
// another session's key shows 0, no key shows nothing.
func TestQualificationLockedCredits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "GIFT-1", "type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 5000}}, app), http.StatusOK)
	order := map[string]any{"amount": 3000}
	locked := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "GIFT-1", "gift": map[string]any{"credits": 1200}}}, "order": order,
		"session": map[string]any{"type": "LOCK"}}, app), http.StatusOK)
	key := locked["session"].(map[string]any)["key"].(string)
	gift := func(session map[string]any) map[string]any {
		body := map[string]any{"order": order}
		if session != nil {
			body["session"] = session
		}
		res := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", body, app), http.StatusOK)
		for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
			if q := x.(map[string]any); q["id"] == "GIFT-1" {
				return q["result"].(map[string]any)["gift"].(map[string]any)
			}
		}
		t.Fatalf("GIFT-1 not listed: %s", mustJSON(res))
		return nil
	}
	if g := gift(map[string]any{"key": key}); g["locked_credits"] != float64(1200) {
		t.Errorf("with the session: %v", g)
	}
	if g := gift(map[string]any{"key": "another-session"}); g["locked_credits"] != float64(0) {
		t.Errorf("with another session: %v", g)
	}
	if g := gift(nil); g["locked_credits"] != nil {
		t.Errorf("without a session: %v", g)
	}
}
