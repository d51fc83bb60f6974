package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

const shopOrigin = "https://shop.example.com"

// clientSettings sets the first project's client-side settings through the
// management API and returns the management headers.
func clientSettings(t *testing.T, e *resttest.Env, mk resttest.Headers, settings map[string]any) map[string]any {
	t.Helper()
	return must(t, e.DoJSON(http.MethodPut, "/management/v1/projects/"+e.Project.ProjectID, settings, mk), http.StatusOK)
}

func TestManagementProjectsCarryClientSettingsAndKeys(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	created := must(t, e.DoJSON(http.MethodPost, "/management/v1/projects", map[string]any{
		"name": "Shop", "timezone": "Europe/Warsaw", "currency": "PLN",
		"client_trusted_domains": []string{"HTTPS://Shop.Example.com/", "*.example.org"}, "client_redeem_enabled": true,
	}, mk), http.StatusOK)
	server, client := created["server_side_key"].(map[string]any), created["client_side_key"].(map[string]any)
	if server["app_id"] == "" || server["app_token"] == "" || client["app_id"] == "" || client["app_token"] == "" {
		t.Fatalf("keys missing: %v", created)
	}
	if created["timezone"] != "Europe/Warsaw" || created["currency"] != "PLN" || created["client_redeem_enabled"] != true ||
		created["client_publish_enabled"] != false || mustJSON(created["client_trusted_domains"]) != `["https://shop.example.com","*.example.org"]` {
		t.Errorf("created project = %v", created)
	}
	id := created["id"].(string)
	// The server-side key opens the server API; the client-side key does not.
	serverKey := resttest.Headers{"X-App-Id": server["app_id"].(string), "X-App-Token": server["app_token"].(string)}
	wantError(t, e.Do(http.MethodGet, "/v1/campaigns/none", nil, serverKey), http.StatusNotFound, "not_found", "")
	clientAsServer := resttest.Headers{"X-App-Id": client["app_id"].(string), "X-App-Token": client["app_token"].(string)}
	wantError(t, e.Do(http.MethodGet, "/v1/campaigns/none", nil, clientAsServer), http.StatusUnauthorized, "unauthorized", "")
	if r := e.GraphQL(clientAsServer, `{ __typename }`, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("client key on /graphql: %d", r.Status)
	}

	got := must(t, e.Do(http.MethodGet, "/management/v1/projects/"+id, nil, mk), http.StatusOK)
	if _, shown := got["server_side_key"]; shown || got["name"] != "Shop" {
		t.Errorf("GET project = %v", got)
	}
	updated := must(t, e.DoJSON(http.MethodPut, "/management/v1/projects/"+id, map[string]any{"client_publish_enabled": true, "description": "web shop"}, mk), http.StatusOK)
	if updated["client_publish_enabled"] != true || updated["client_redeem_enabled"] != true || updated["description"] != "web shop" || updated["name"] != "Shop" {
		t.Errorf("PUT project = %v", updated)
	}
	list := must(t, e.Do(http.MethodGet, "/management/v1/projects?limit=100", nil, mk), http.StatusOK)
	if list["total"] != float64(2) || !strings.Contains(mustJSON(list["data"]), id) {
		t.Errorf("project list = %v", list)
	}

	for _, bad := range []map[string]any{
		{"client_trusted_domains": []string{"ftp://x.com"}}, {"timezone": "Mars/Olympus"}, {"currency": "dollars"}, {"name": ""},
	} {
		wantError(t, e.DoJSON(http.MethodPut, "/management/v1/projects/"+id, bad, mk), http.StatusBadRequest, "invalid_payload", "")
	}
	wantError(t, e.DoJSON(http.MethodPost, "/management/v1/projects", map[string]any{"timezone": "UTC"}, mk), http.StatusBadRequest, "invalid_payload", "name")
	wantError(t, e.Do(http.MethodGet, "/management/v1/projects/proj_nope", nil, mk), http.StatusNotFound, "not_found", "")
	wantError(t, e.Do(http.MethodGet, "/management/v1/projects", nil, resttest.App(e.Project)), http.StatusUnauthorized, "unauthorized", "")

	// Client-side keys have their own management routes and can be
	// regenerated; the old token stops working.
	keys := must(t, e.Do(http.MethodGet, "/management/v1/projects/"+id+"/client-keys", nil, mk), http.StatusOK)
	if keys["total"] != float64(1) || !strings.Contains(mustJSON(keys["data"]), `"side":"CLIENT"`) {
		t.Errorf("client keys = %v", keys)
	}
	regen := must(t, e.Do(http.MethodPost, "/management/v1/projects/"+id+"/client-keys/"+client["app_id"].(string)+"/regenerate", nil, mk), http.StatusOK)
	if regen["app_token"] == client["app_token"] || regen["app_token"] == "" {
		t.Errorf("regenerated = %v", regen)
	}
}

func TestClientKeyReachesOnlyWhatTheProjectAllows(t *testing.T) {
	e := resttest.New(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	discountCode(t, e, app, "Web", "WEB-1", map[string]any{"type": "AMOUNT", "amount_off": 500}, nil)
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(e.Project, shopOrigin)
	validate := "/client/v1/validate?code=WEB-1&amount=2000&customer%5Bsource_id%5D=alice&item%5B0%5D%5Bproduct_id%5D=p1&item%5B0%5D%5Bquantity%5D=2&item%5B0%5D%5Bprice%5D=1000&tracking_id=alice"

	// Validation works from the trusted origin only.
	v := must(t, e.Do(http.MethodGet, validate, nil, cl), http.StatusOK)
	if v["valid"] != true || v["code"] != "WEB-1" || num(v["order"].(map[string]any)["total_discount_amount"]) != 500 {
		t.Errorf("client validation = %v", v)
	}
	for name, h := range map[string]resttest.Headers{
		"foreign origin": resttest.Client(e.Project, "https://evil.example.net"),
		"no origin":      resttest.Merge(cl, resttest.Headers{"Origin": ""}),
		"null origin":    resttest.Merge(cl, resttest.Headers{"Origin": "null"}),
	} {
		if r := e.Do(http.MethodGet, validate, nil, h); r.Status != http.StatusForbidden {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	wrong := resttest.Merge(cl, resttest.Headers{"X-Client-Token": "nope"})
	wantError(t, e.Do(http.MethodGet, validate, nil, wrong), http.StatusUnauthorized, "unauthorized", "")
	serverAsClient := resttest.Headers{"X-Client-Application-Id": e.Project.AppID, "X-Client-Token": e.Project.AppToken, "Origin": shopOrigin}
	wantError(t, e.Do(http.MethodGet, validate, nil, serverAsClient), http.StatusUnauthorized, "unauthorized", "")
	// The client key opens nothing of the server API.
	for _, path := range []string{"/v1/campaigns/Web", "/v1/vouchers/WEB-1", "/v1/customers/alice", "/v1/redemptions"} {
		asApp := resttest.Headers{"X-App-Id": e.Project.ClientAppID, "X-App-Token": e.Project.ClientAppToken}
		if r := e.Do(http.MethodGet, path, nil, asApp); r.Status != http.StatusUnauthorized {
			t.Errorf("client key on %s: %d", path, r.Status)
		}
	}
	if r := e.Do(http.MethodGet, "/client/v1/campaigns", nil, cl); r.Status != http.StatusNotFound {
		t.Errorf("client API campaigns: %d", r.Status)
	}

	// Every write and list is off until the project switches it on.
	redeem := map[string]any{"customer": map[string]any{"source_id": "alice"}, "order": map[string]any{"amount": 2000}}
	stacked := map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "WEB-1"}}, "order": map[string]any{"amount": 2000}}
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/redeem?code=WEB-1", redeem, cl), http.StatusForbidden, "forbidden", "client_redeem_enabled")
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/redemptions", stacked, cl), http.StatusForbidden, "forbidden", "client_redeem_enabled")
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/publish?campaign=Web", map[string]any{"customer": map[string]any{"source_id": "alice"}}, cl), http.StatusForbidden, "forbidden", "client_publish_enabled")
	wantError(t, e.Do(http.MethodGet, "/client/v1/vouchers", nil, cl), http.StatusForbidden, "forbidden", "client_list_vouchers_enabled")
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/customers", map[string]any{"source_id": "bob"}, cl), http.StatusForbidden, "forbidden", "client_create_customer_enabled")
	must(t, e.DoJSON(http.MethodPost, "/client/v1/validations", stacked, cl), http.StatusOK)

	clientSettings(t, e, mk, map[string]any{"client_redeem_enabled": true, "client_publish_enabled": true,
		"client_list_vouchers_enabled": true, "client_create_customer_enabled": true})
	r := must(t, e.DoJSON(http.MethodPost, "/client/v1/redeem?code=WEB-1", redeem, cl), http.StatusOK)
	if r["result"] != "SUCCESS" || r["channel"].(map[string]any)["channel_type"] != "CLIENT_API" {
		t.Errorf("client redemption = %v", r)
	}
	stored, err := e.DB.Client.Redemption.Query().Where(redemption.ID(r["id"].(string))).Only(systemCtx())
	if err != nil || stored.Channel["channel_type"] != "CLIENT_API" {
		t.Errorf("stored redemption channel = %v (%v)", stored, err)
	}
	pub := must(t, e.DoJSON(http.MethodPost, "/client/v1/publish?campaign=Web", map[string]any{"customer": map[string]any{"source_id": "alice"}, "channel": "Voucherify.js"}, cl), http.StatusOK)
	if pub["voucher"].(map[string]any)["code"] != "WEB-1" {
		t.Errorf("client publication = %v", pub)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/publish?campaign=Web", map[string]any{"customer": "cust_x"}, cl), http.StatusBadRequest, "invalid_payload", "source_id")
	// Only the SDK's filters apply: a page cannot probe codes one by one.
	list := must(t, e.Do(http.MethodGet, "/client/v1/vouchers?campaign=Web&code=NOPE", nil, cl), http.StatusOK)
	if list["total"] != float64(1) {
		t.Errorf("client voucher list = %v", list)
	}

	// A browser creates customers but can neither read nor overwrite one
	// that exists.
	bob := must(t, e.DoJSON(http.MethodPost, "/client/v1/customers", map[string]any{"source_id": "bob", "email": "bob@example.com"}, cl), http.StatusOK)
	if bob["email"] != "bob@example.com" {
		t.Errorf("created customer = %v", bob)
	}
	again := must(t, e.DoJSON(http.MethodPost, "/client/v1/customers", map[string]any{"source_id": "bob", "email": "mallory@example.com"}, cl), http.StatusOK)
	if again["id"] != bob["id"] || again["email"] != nil || len(again) != 3 {
		t.Errorf("existing customer through the client API = %v", again)
	}
	stillBob := must(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, app), http.StatusOK)
	if stillBob["email"] != "bob@example.com" {
		t.Errorf("client API overwrote a customer: %v", stillBob)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/customers", map[string]any{"id": bob["id"], "email": "x@example.com"}, cl), http.StatusBadRequest, "invalid_payload", "id")

	// Events are tracked; loyalty and referral data need their own switch.
	defineEvent(t, e, app, "page-view", map[string]any{})
	defineEvent(t, e, app, "signup", map[string]any{})
	must(t, e.DoJSON(http.MethodPost, "/client/v1/events", map[string]any{"event": "page-view", "customer": map[string]any{"source_id": "alice"}}, cl), http.StatusOK)
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/events", map[string]any{"event": "signup", "customer": map[string]any{"source_id": "alice"},
		"referral": map[string]any{"code": "REF"}}, cl), http.StatusForbidden, "forbidden", "client_loyalty_events_enabled")

	// A blocked client key authenticates nothing.
	must(t, e.Do(http.MethodPost, "/management/v1/projects/"+e.Project.ProjectID+"/client-keys/"+e.Project.ClientAppID+"/block", nil, mk), http.StatusOK)
	wantError(t, e.Do(http.MethodGet, validate, nil, cl), http.StatusUnauthorized, "unauthorized", "")
}

func TestClientKeysStayInTheirProject(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	discountCode(t, e, resttest.App(e.Project), "Mine", "MINE-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	other := e.NewProject("project B")
	must(t, e.DoJSON(http.MethodPut, "/management/v1/projects/"+other.ProjectID, map[string]any{"client_trusted_domains": []string{shopOrigin}}, mk), http.StatusOK)
	wantError(t, e.Do(http.MethodGet, "/client/v1/validate?code=MINE-1", nil, resttest.Client(other, shopOrigin)), http.StatusNotFound, "not_found", "")
	// Project A trusts no origin yet: project B's trust does not extend to it.
	wantError(t, e.Do(http.MethodGet, "/client/v1/validate?code=MINE-1", nil, resttest.Client(e.Project, shopOrigin)), http.StatusForbidden, "forbidden", "client_trusted_domains")
}

func TestClientAPIRateLimitPerKey(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.ClientRateLimit = 3 })
	mk := e.NewManagementKey()
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	other := e.NewProject("project B")
	must(t, e.DoJSON(http.MethodPut, "/management/v1/projects/"+other.ProjectID, map[string]any{"client_trusted_domains": []string{shopOrigin}}, mk), http.StatusOK)
	cl := resttest.Client(e.Project, shopOrigin)
	for i := 0; i < 3; i++ {
		wantError(t, e.Do(http.MethodGet, "/client/v1/validate?code=NONE", nil, cl), http.StatusNotFound, "not_found", "")
	}
	limited := e.Do(http.MethodGet, "/client/v1/validate?code=NONE", nil, cl)
	wantError(t, limited, http.StatusTooManyRequests, "too_many_requests", "3 requests per minute")
	if ra := limited.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After = %q", ra)
	}
	// Another key has its own allowance.
	wantError(t, e.Do(http.MethodGet, "/client/v1/validate?code=NONE", nil, resttest.Client(other, shopOrigin)), http.StatusNotFound, "not_found", "")
}

func TestClientAPIWithOAuthClientScopes(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Tok", "TOK-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	validateOnly := resttest.Bearer(e.Token(app, "client_validate"))
	v := must(t, e.Do(http.MethodGet, "/client/v1/validate?code=TOK-1", nil, validateOnly), http.StatusOK)
	if v["valid"] != true {
		t.Errorf("validation with client_validate token = %v", v)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/client/v1/validations", map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "TOK-1"}}}, validateOnly),
		http.StatusForbidden, "forbidden", "client_validations")
	// A client-scoped token opens nothing of the server API, and the server
	// scope nothing of the client API.
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/TOK-1", nil, validateOnly), http.StatusForbidden, "forbidden", "")
	wantError(t, e.Do(http.MethodGet, "/client/v1/validate?code=TOK-1", nil, resttest.Bearer(e.Token(app, "api"))), http.StatusForbidden, "forbidden", "client_api")
	all := resttest.Bearer(e.Token(app, "client_api"))
	must(t, e.Do(http.MethodGet, "/client/v1/validate?code=TOK-1", nil, all), http.StatusOK)
}
