package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

const adminOrigin = "https://admin.example.com"

func preflight(e *resttest.Env, path, origin, method string) resttest.Response {
	return e.Do(http.MethodOptions, path, nil, resttest.Headers{"Origin": origin,
		"Access-Control-Request-Method": method, "Access-Control-Request-Headers": "content-type,x-app-id,x-app-token"})
}

func TestCORSMatrix(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.CORSOrigins = []string{adminOrigin} })
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})

	cases := []struct {
		name, path, origin string
		allowed            bool
	}{
		{"graphql from the configured origin", "/graphql", adminOrigin, true},
		{"server API from the configured origin", "/v1/campaigns", adminOrigin, true},
		{"v2 from the configured origin", "/v2/loyalties", adminOrigin, true},
		{"graphql from a foreign origin", "/graphql", "https://evil.example.net", false},
		{"graphql from a shop the project trusts for client keys", "/graphql", shopOrigin, false},
		{"client API from a trusted shop", "/client/v1/validate", shopOrigin, true},
		{"client API from the admin origin", "/client/v1/redeem", adminOrigin, false},
		{"client API from a foreign origin", "/client/v1/validations", "https://evil.example.net", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pre := preflight(e, c.path, c.origin, http.MethodPost)
			acao := pre.Header.Get("Access-Control-Allow-Origin")
			if !strings.Contains(pre.Header.Get("Vary"), "Origin") {
				t.Errorf("preflight Vary = %q", pre.Header.Get("Vary"))
			}
			if !c.allowed {
				if pre.Status != http.StatusForbidden || acao != "" {
					t.Fatalf("preflight from %s: %d, Allow-Origin %q", c.origin, pre.Status, acao)
				}
				return
			}
			allowHeaders := strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers"))
			if pre.Status != http.StatusNoContent || acao != c.origin || pre.Header.Get("Access-Control-Allow-Credentials") != "" ||
				!strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "POST") {
				t.Fatalf("preflight: %d %v", pre.Status, pre.Header)
			}
			for _, h := range []string{"authorization", "content-type", "x-app-id", "x-app-token", "x-client-application-id", "x-client-token"} {
				if !strings.Contains(allowHeaders, h) {
					t.Errorf("Access-Control-Allow-Headers %q lacks %s", allowHeaders, h)
				}
			}
		})
	}

	// Actual requests: the allowed origin may read the response, another
	// origin gets it without Access-Control-Allow-Origin (the browser
	// withholds it).
	ok := e.Do(http.MethodPost, "/graphql", []byte(`{"query":"{ __typename }"}`), resttest.Merge(app, resttest.Headers{"Origin": adminOrigin}))
	if ok.Status != http.StatusOK || ok.Header.Get("Access-Control-Allow-Origin") != adminOrigin ||
		!strings.Contains(ok.Header.Get("Access-Control-Expose-Headers"), "X-Request-Id") {
		t.Errorf("graphql from %s: %d %v", adminOrigin, ok.Status, ok.Header)
	}
	foreign := e.Do(http.MethodPost, "/graphql", []byte(`{"query":"{ __typename }"}`), resttest.Merge(app, resttest.Headers{"Origin": "https://evil.example.net"}))
	if foreign.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("graphql from a foreign origin got Allow-Origin %q", foreign.Header.Get("Access-Control-Allow-Origin"))
	}
	client := e.Do(http.MethodGet, "/client/v1/validate?code=NONE", nil, resttest.Client(e.Project, shopOrigin))
	if client.Status != http.StatusNotFound || client.Header.Get("Access-Control-Allow-Origin") != shopOrigin {
		t.Errorf("client API from the trusted shop: %d %v", client.Status, client.Header)
	}
	// The management API is never offered to browsers.
	if r := preflight(e, "/management/v1/projects", adminOrigin, http.MethodGet); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("management preflight allowed: %d %v", r.Status, r.Header)
	}
	// A trusted domain added through the management API applies at once.
	if r := preflight(e, "/client/v1/validate", "https://new.example.com", http.MethodGet); r.Status != http.StatusForbidden {
		t.Errorf("untrusted new origin: %d", r.Status)
	}
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin, "https://new.example.com"}})
	if r := preflight(e, "/client/v1/validate", "https://new.example.com", http.MethodGet); r.Status != http.StatusNoContent {
		t.Errorf("newly trusted origin: %d", r.Status)
	}
}

func TestCORSIsOffByDefault(t *testing.T) {
	e := resttest.New(t)
	for _, path := range []string{"/graphql", "/v1/campaigns"} {
		r := preflight(e, path, adminOrigin, http.MethodPost)
		if r.Status != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s preflight without PROMO_CORS_ORIGINS: %d %v", path, r.Status, r.Header)
		}
	}
}
