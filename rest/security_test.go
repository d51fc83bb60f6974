package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// dbSnapshot is what a refused request must not change: row counts of
// every table and the state of every application key.
func dbSnapshot(t *testing.T, e *resttest.Env) string {
	t.Helper()
	ctx := systemCtx()
	c := e.DB.Client
	var keys []string
	for _, k := range c.AppKey.Query().AllX(ctx) {
		keys = append(keys, fmt.Sprintf("%s/%s/%s/%v/%s", k.ID, k.Status, k.TokenHash, k.AllowedIps, k.Name))
	}
	sort.Strings(keys)
	return fmt.Sprintf("projects=%d keys=%d mgmt=%d tokens=%d brands=%d users=%d members=%d campaigns=%d %v",
		c.Project.Query().CountX(ctx), c.AppKey.Query().CountX(ctx), c.ManagementKey.Query().CountX(ctx),
		c.OAuthToken.Query().CountX(ctx), c.Branding.Query().CountX(ctx), c.User.Query().CountX(ctx),
		c.ProjectUser.Query().CountX(ctx), c.Campaign.Query().CountX(ctx), keys)
}

func TestRefusedRequestsChangeNothing(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a := resttest.App(e.Project)
	bCreds := e.NewProject("B")
	b := resttest.App(bCreds)
	createCampaign(t, e, map[string]any{"name": "Keys"})

	api := e.Token(a, "api")
	narrow := e.Token(a, "vouchers")
	bToken := e.Token(b, "api")
	revoked := e.Token(a, "api")
	e.Form("/v1/oauth/token/revoke", url.Values{"access_token": {revoked}}, a)

	blocked, _ := newKey(t, e, mk, nil)
	blockedToken := e.Token(blocked, "api")
	e.Do(http.MethodPost, keyPath(e, blocked, "block"), nil, mk)

	deleted, _ := newKey(t, e, mk, nil)
	deletedToken := e.Token(deleted, "api")
	e.Do(http.MethodDelete, keyPath(e, deleted, ""), nil, mk)

	fenced, _ := newKey(t, e, mk, nil)
	fencedToken := e.Token(fenced, "api")
	e.DoJSON(http.MethodPut, keyPath(e, fenced, ""), map[string]any{"allowed_ips": []string{"192.0.2.1"}}, mk)

	expiredKey, _ := newKey(t, e, mk, nil)
	expired := e.Token(expiredKey, "api")
	if _, err := e.DB.SQL.Exec(`UPDATE oauth_tokens SET expires_at = created_at WHERE app_key_id = '` + expiredKey["X-App-Id"] + `'`); err != nil {
		t.Fatal(err)
	}

	campaign := map[string]any{"name": "must not exist"}
	brand := brandingPayload()
	tokenReq := url.Values{"grant_type": {"client_credentials"}, "scope": {"api"}}
	mgmt := "/management/v1/projects/" + e.Project.ProjectID
	mutation := map[string]any{"query": `mutation { createCampaign(input: {name: "gql"}) { id } }`}
	wrongMgmt := resttest.Headers{"X-Management-Id": mk["X-Management-Id"], "X-Management-Token": "wrong"}
	mgmtAsApp := resttest.Headers{"X-App-Id": mk["X-Management-Id"], "X-App-Token": mk["X-Management-Token"]}

	cases := []struct {
		name   string
		method string
		path   string
		body   any // map → JSON, url.Values → form
		h      resttest.Headers
		status int
		key    string
	}{
		{"no credentials", "POST", "/v1/campaigns", campaign, nil, 401, "unauthorized"},
		{"wrong app token", "POST", "/v1/campaigns", campaign, resttest.Headers{"X-App-Id": a["X-App-Id"], "X-App-Token": "x"}, 401, "unauthorized"},
		{"app id of A with token of B", "POST", "/v1/campaigns", campaign, resttest.Headers{"X-App-Id": a["X-App-Id"], "X-App-Token": b["X-App-Token"]}, 401, "unauthorized"},
		{"management keys on v1", "POST", "/v1/campaigns", campaign, mk, 401, "unauthorized"},
		{"management keys as app keys", "POST", "/v1/campaigns", campaign, mgmtAsApp, 401, "unauthorized"},
		{"unknown bearer", "POST", "/v1/campaigns", campaign, resttest.Bearer("nope"), 401, "unauthorized"},
		{"empty bearer", "POST", "/v1/campaigns", campaign, resttest.Headers{"Authorization": "Bearer "}, 401, "unauthorized"},
		{"basic auth", "POST", "/v1/campaigns", campaign, resttest.Headers{"Authorization": "Basic " + api}, 401, "unauthorized"},
		{"app token as bearer", "POST", "/v1/campaigns", campaign, resttest.Bearer(a["X-App-Token"]), 401, "unauthorized"},
		{"expired token", "POST", "/v1/campaigns", campaign, resttest.Bearer(expired), 401, "unauthorized"},
		{"revoked token", "POST", "/v1/campaigns", campaign, resttest.Bearer(revoked), 401, "unauthorized"},
		{"blocked key", "POST", "/v1/campaigns", campaign, blocked, 401, "unauthorized"},
		{"token of blocked key", "POST", "/v1/campaigns", campaign, resttest.Bearer(blockedToken), 401, "unauthorized"},
		{"deleted key", "POST", "/v1/campaigns", campaign, deleted, 401, "unauthorized"},
		{"token of deleted key", "POST", "/v1/campaigns", campaign, resttest.Bearer(deletedToken), 401, "unauthorized"},
		{"scope too narrow", "POST", "/v1/campaigns", campaign, resttest.Bearer(narrow), 403, "forbidden"},
		{"scope too narrow for GraphQL", "POST", "/graphql", mutation, resttest.Bearer(narrow), 403, "forbidden"},
		{"GraphQL without credentials", "POST", "/graphql", mutation, nil, 401, "unauthorized"},
		{"GraphQL with expired token", "POST", "/graphql", mutation, resttest.Bearer(expired), 401, "unauthorized"},
		{"token of A with keys of B", "POST", "/v1/campaigns", campaign, resttest.Merge(b, resttest.Bearer(api)), 401, "unauthorized"},
		{"token of A with wrong keys", "POST", "/v1/campaigns", campaign, resttest.Merge(resttest.Bearer(api), resttest.Headers{"X-App-Id": "x", "X-App-Token": "y"}), 401, "unauthorized"},
		{"key outside allow-list", "POST", "/v1/campaigns", campaign, fenced, 403, "forbidden"},
		{"token outside allow-list", "POST", "/v1/campaigns", campaign, resttest.Bearer(fencedToken), 403, "forbidden"},
		{"token request outside allow-list", "POST", "/v1/oauth/token", tokenReq, fenced, 403, "forbidden"},
		{"token request with bearer", "POST", "/v1/oauth/token", tokenReq, resttest.Bearer(api), 401, "unauthorized"},
		{"token request by blocked key", "POST", "/v1/oauth/token", tokenReq, blocked, 401, "unauthorized"},
		{"token request by deleted key", "POST", "/v1/oauth/token", tokenReq, deleted, 401, "unauthorized"},
		{"token request with management keys", "POST", "/v1/oauth/token", tokenReq, mk, 401, "unauthorized"},
		{"branding with app keys", "POST", mgmt + "/branding", brand, a, 401, "unauthorized"},
		{"branding with bearer", "POST", mgmt + "/branding", brand, resttest.Bearer(api), 401, "unauthorized"},
		{"branding with wrong management token", "POST", mgmt + "/branding", brand, wrongMgmt, 401, "unauthorized"},
		{"branding of unknown project", "POST", "/management/v1/projects/proj_x/branding", brand, mk, 404, "not_found"},
		{"users with app keys", "GET", mgmt + "/users", nil, a, 401, "unauthorized"},
		{"key create with app keys", "POST", mgmt + "/api-keys", map[string]any{}, a, 401, "unauthorized"},
		{"block key with app keys", "POST", keyPath(e, a, "block"), nil, a, 401, "unauthorized"},
		{"block key of another project", "POST", keyPath(e, b, "block"), nil, mk, 404, "not_found"},
		{"delete key of another project", "DELETE", keyPath(e, b, ""), nil, mk, 404, "not_found"},
		{"regenerate key of another project", "POST", keyPath(e, b, "regenerate"), nil, mk, 404, "not_found"},
		{"key create for unknown project", "POST", "/management/v1/projects/proj_x/api-keys", map[string]any{}, mk, 404, "not_found"},
	}
	before := dbSnapshot(t, e)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var resp resttest.Response
			switch body := tc.body.(type) {
			case url.Values:
				resp = e.Form(tc.path, body, tc.h)
			case nil:
				resp = e.Do(tc.method, tc.path, nil, tc.h)
			default:
				resp = e.DoJSON(tc.method, tc.path, body, tc.h)
			}
			key := ""
			if tc.path == "/graphql" {
				var g resttest.GraphQLResponse
				if err := json.Unmarshal(resp.Body, &g); err == nil && len(g.Errors) == 1 {
					key, _ = g.Errors[0].Extensions["key"].(string)
				}
			} else {
				got := resp.JSON(t)
				key, _ = got["key"].(string)
				if got["code"] != float64(tc.status) || got["request_id"] == "" || got["message"] == "" {
					t.Errorf("error object: %s", resp.Body)
				}
			}
			if resp.Status != tc.status || key != tc.key {
				t.Errorf("got %d %q, want %d %q: %s", resp.Status, key, tc.status, tc.key, resp.Body)
			}
		})
	}
	// Introspection across projects is not an error, just inactive.
	if r := e.Form("/v1/oauth/introspect", url.Values{"access_token": {bToken}}, a); r.Status != 200 || string(r.Body) != `{"active":false}` {
		t.Errorf("introspect B's token with A's key: %d %s", r.Status, r.Body)
	}
	if after := dbSnapshot(t, e); after != before {
		t.Errorf("refused requests changed the database:\nbefore %s\nafter  %s", before, after)
	}
}
