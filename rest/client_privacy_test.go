package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// storedProfile is what the server API stored for alice: none of these
// strings may reach a caller of the client-side API, who proves nothing
// by naming her source_id.
var storedProfile = map[string]any{
	"source_id":   "alice",
	"name":        "Stored Alice Name",
	"email":       "stored-alice@example.com",
	"phone":       "+48 600 111 222",
	"description": "stored-description-text",
	"birthdate":   "1980-02-03",
	"address": map[string]any{"city": "Storedtown", "line_1": "1 Stored Street", "postal_code": "99-999",
		"state": "Storedstate", "country": "Storedland"},
	"metadata": map[string]any{"secret_note": "stored-secret-value", "tier": "stored-tier-gold"},
}

// storedStrings are the stored profile values searched for in raw bodies.
var storedStrings = []string{"Stored Alice Name", "stored-alice@example.com", "+48 600 111 222", "stored-description-text",
	"1980-02-03", "Storedtown", "1 Stored Street", "99-999", "Storedstate", "Storedland", "secret_note", "stored-secret-value", "stored-tier-gold"}

// TestClientAPINeverShowsAStoredProfile calls every client-side endpoint
// naming a stored customer by source_id alone, and again with profile
// values of its own: the answer may echo what the request sent, never
// what is stored, and the stored profile does not change.
func TestClientAPINeverShowsAStoredProfile(t *testing.T) {
	e := resttest.New(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", storedProfile, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Web", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app), http.StatusOK)
	for _, code := range []string{"WEB-1", "WEB-2", "WEB-3", "WEB-4"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Web/vouchers", map[string]any{"code": code}, app), http.StatusOK)
	}
	// One of alice's vouchers is published to her by the server.
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "alice"},
		"voucher": "WEB-4"}, app), http.StatusOK)
	defineEvent(t, e, app, "page-view", map[string]any{})
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}, "client_redeem_enabled": true,
		"client_publish_enabled": true, "client_list_vouchers_enabled": true, "client_create_customer_enabled": true})
	cl := resttest.Client(e.Project, shopOrigin)

	byID := map[string]any{"source_id": "alice"}
	sent := map[string]any{"source_id": "alice", "name": "Sent Name", "email": "sent@example.com",
		"metadata": map[string]any{"sent_key": "sent-value"}}
	order := map[string]any{"amount": 2000, "customer": byID}
	stacked := func(code string, customer map[string]any) map[string]any {
		return map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": code}},
			"order": map[string]any{"amount": 2000}, "customer": customer}
	}
	type call struct {
		name, method, path string
		body               any
	}
	// Every call naming alice by source_id alone comes first, then the same
	// calls sending profile values of their own.
	calls := []call{
		{"validate", http.MethodGet, "/client/v1/validate?code=WEB-1&amount=2000&customer%5Bsource_id%5D=alice", nil},
		{"validations", http.MethodPost, "/client/v1/validations", stacked("WEB-1", byID)},
		{"validations naming the customer in the order", http.MethodPost, "/client/v1/validations", map[string]any{
			"redeemables": []any{map[string]any{"object": "voucher", "id": "WEB-1"}}, "order": order}},
		{"redeem", http.MethodPost, "/client/v1/redeem?code=WEB-1", map[string]any{"customer": byID, "order": map[string]any{"amount": 2000}}},
		{"redemptions", http.MethodPost, "/client/v1/redemptions", stacked("WEB-3", byID)},
		{"publish", http.MethodPost, "/client/v1/publish?campaign=Web", map[string]any{"customer": byID}},
		{"events", http.MethodPost, "/client/v1/events", map[string]any{"event": "page-view", "customer": byID}},
		{"vouchers", http.MethodGet, "/client/v1/vouchers?customer=alice", nil},
		{"vouchers of the campaign", http.MethodGet, "/client/v1/vouchers?campaign=" + url.QueryEscape("Web"), nil},
		{"customers", http.MethodPost, "/client/v1/customers", byID},

		{"validate sending a profile", http.MethodGet, "/client/v1/validate?code=WEB-1&amount=2000&customer%5Bsource_id%5D=alice&customer%5Bemail%5D=sent%40example.com&customer%5Bmetadata%5D%5Bsent_key%5D=sent-value", nil},
		{"validations sending a profile", http.MethodPost, "/client/v1/validations", stacked("WEB-1", sent)},
		{"redeem sending a profile", http.MethodPost, "/client/v1/redeem?code=WEB-2", map[string]any{"customer": sent, "order": order}},
		{"redemptions sending a profile", http.MethodPost, "/client/v1/redemptions", stacked("WEB-4", sent)},
		{"publish sending a profile", http.MethodPost, "/client/v1/publish?campaign=Web", map[string]any{"customer": sent, "channel": "Voucherify.js"}},
		{"events sending a profile", http.MethodPost, "/client/v1/events", map[string]any{"event": "page-view", "customer": sent}},
		{"customers sending a profile", http.MethodPost, "/client/v1/customers", sent},
	}
	for _, c := range calls {
		var r resttest.Response
		if c.body == nil {
			r = e.Do(c.method, c.path, nil, cl)
		} else {
			r = e.DoJSON(c.method, c.path, c.body, cl)
		}
		if r.Status != http.StatusOK {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			continue
		}
		if !strings.Contains(c.path, "vouchers") && !strings.Contains(string(r.Body), `"source_id":"alice"`) &&
			!strings.Contains(c.path, "valid") {
			t.Errorf("%s does not name the customer by source_id: %s", c.name, r.Body)
		}
		for _, s := range storedStrings {
			if strings.Contains(string(r.Body), s) {
				t.Errorf("%s shows the stored %q: %s", c.name, s, r.Body)
			}
		}
	}
	// Nor did any of them change the stored profile.
	got := must(t, e.Do(http.MethodGet, "/v1/customers/alice", nil, app), http.StatusOK)
	if got["name"] != storedProfile["name"] || got["email"] != storedProfile["email"] ||
		mustJSON(got["metadata"]) != mustJSON(storedProfile["metadata"]) {
		t.Errorf("the client API changed the stored profile: %v", got)
	}
	// A customer the client API creates does get the profile sent.
	must(t, e.DoJSON(http.MethodPost, "/client/v1/publish?campaign=Web", map[string]any{
		"customer": map[string]any{"source_id": "newbie", "email": "newbie@example.com"}}, cl), http.StatusOK)
	if newbie := must(t, e.Do(http.MethodGet, "/v1/customers/newbie", nil, app), http.StatusOK); newbie["email"] != "newbie@example.com" {
		t.Errorf("customer created through the client API = %v", newbie)
	}
}
