package management_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// clientCredentials is the form of an OAuth token request with the key.
var clientCredentials = url.Values{"grant_type": {"client_credentials"}, "scope": {"api"}}

func campaignStatus(e *resttest.Env, h resttest.Headers) int {
	return e.Do(http.MethodGet, "/v1/campaigns/Keys", nil, h).Status
}

func TestApplicationKeyLifecycle(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Keys"}, resttest.App(e.Project)), http.StatusOK)
	key, body := resttest.NewAppKey(t, e, mk, map[string]any{"name": "shop"})
	if body["object"] != "api_key" || body["name"] != "shop" || body["status"] != "ACTIVE" || body["project_id"] != e.Project.ProjectID {
		t.Errorf("created key: %v", body)
	}
	if s := campaignStatus(e, key); s != 200 {
		t.Fatalf("new key: %d", s)
	}
	tok := e.Token(key, "api")

	// Block: the key and its tokens stop working, no new tokens; blocking
	// again is a no-op; unblocking restores the key but not the old tokens.
	for range 2 {
		if r := e.Do(http.MethodPost, resttest.AppKeyPath(e, key, "block"), nil, mk); r.Status != 200 || r.JSON(t)["status"] != "BLOCKED" {
			t.Fatalf("block: %d %s", r.Status, r.Body)
		}
	}
	if s := campaignStatus(e, key); s != 401 {
		t.Errorf("blocked key: %d", s)
	}
	if s := campaignStatus(e, resttest.Bearer(tok)); s != 401 {
		t.Errorf("token of blocked key: %d", s)
	}
	if r := e.Form("/v1/oauth/token", clientCredentials, key); r.Status != 401 {
		t.Errorf("token from blocked key: %d", r.Status)
	}
	if r := e.Form("/v1/oauth/introspect", url.Values{"access_token": {tok}}, resttest.App(e.Project)); string(r.Body) != `{"active":false}` {
		t.Errorf("introspect token of blocked key: %s", r.Body)
	}
	if r := e.Do(http.MethodPost, resttest.AppKeyPath(e, key, "unblock"), nil, mk); r.Status != 200 || r.JSON(t)["status"] != "ACTIVE" {
		t.Fatalf("unblock: %d %s", r.Status, r.Body)
	}
	if s := campaignStatus(e, key); s != 200 {
		t.Errorf("unblocked key: %d", s)
	}
	if s := campaignStatus(e, resttest.Bearer(tok)); s != 401 {
		t.Errorf("token revoked by the block works again: %d", s)
	}

	// Regenerate: same id, new token; the old token fails; OAuth tokens live on.
	tok = e.Token(key, "api")
	r := e.Do(http.MethodPost, resttest.AppKeyPath(e, key, "regenerate"), nil, mk)
	regen := r.JSON(t)
	if r.Status != 200 || regen["app_id"] != key["X-App-Id"] || regen["app_token"] == key["X-App-Token"] || regen["app_token"] == "" {
		t.Fatalf("regenerate: %d %s", r.Status, r.Body)
	}
	if s := campaignStatus(e, key); s != 401 {
		t.Errorf("old token after regenerate: %d", s)
	}
	newKeyHeaders := resttest.Headers{"X-App-Id": key["X-App-Id"], "X-App-Token": regen["app_token"].(string)}
	if s := campaignStatus(e, newKeyHeaders); s != 200 {
		t.Errorf("regenerated token: %d", s)
	}
	if s := campaignStatus(e, resttest.Bearer(tok)); s != 200 {
		t.Errorf("OAuth token after regenerate: %d", s)
	}

	// List shows keys without tokens.
	r = e.Do(http.MethodGet, "/management/v1/projects/"+e.Project.ProjectID+"/api-keys", nil, mk)
	if l := r.JSON(t); r.Status != 200 || l["total"] != float64(2) {
		t.Errorf("list: %d %s", r.Status, r.Body)
	}
	for _, k := range r.JSON(t)["data"].([]any) {
		if _, has := k.(map[string]any)["app_token"]; has {
			t.Errorf("list shows a token")
		}
	}

	// Delete: key and tokens gone.
	if r := e.Do(http.MethodDelete, resttest.AppKeyPath(e, key, ""), nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if s := campaignStatus(e, newKeyHeaders); s != 401 {
		t.Errorf("deleted key: %d", s)
	}
	if s := campaignStatus(e, resttest.Bearer(tok)); s != 401 {
		t.Errorf("token of deleted key: %d", s)
	}
	if n := e.DB.Client.OAuthToken.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d tokens left after deleting their key", n)
	}
	for _, action := range []string{"block", "unblock", "regenerate"} {
		if r := e.Do(http.MethodPost, resttest.AppKeyPath(e, key, action), nil, mk); r.Status != 404 || r.JSON(t)["resource_type"] != "api_key" {
			t.Errorf("%s deleted key: %d %s", action, r.Status, r.Body)
		}
	}
	// The project's first key was never touched.
	if s := campaignStatus(e, resttest.App(e.Project)); s != 200 {
		t.Errorf("other key: %d", s)
	}
}

func TestIPAllowList(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Keys"}, resttest.App(e.Project)), http.StatusOK)

	// Test requests come from 127.0.0.1.
	local, _ := resttest.NewAppKey(t, e, mk, map[string]any{"allowed_ips": []string{"127.0.0.1", "10.0.0.0/8"}})
	if s := campaignStatus(e, local); s != 200 {
		t.Errorf("allowed address: %d", s)
	}
	tok := e.Token(local, "api")
	if s := campaignStatus(e, resttest.Bearer(tok)); s != 200 {
		t.Errorf("token from allowed address: %d", s)
	}
	// Narrowing the list cuts off the key and its tokens.
	r := e.DoJSON(http.MethodPut, resttest.AppKeyPath(e, local, ""), map[string]any{"allowed_ips": []string{"192.0.2.0/24"}}, mk)
	if r.Status != 200 || len(r.JSON(t)["allowed_ips"].([]any)) != 1 {
		t.Fatalf("update allow-list: %d %s", r.Status, r.Body)
	}
	for name, h := range map[string]resttest.Headers{"key": local, "token": resttest.Bearer(tok)} {
		r := e.Do(http.MethodGet, "/v1/campaigns/Keys", nil, h)
		if g := r.JSON(t); r.Status != 403 || g["key"] != "forbidden" {
			t.Errorf("%s from outside the allow-list: %d %s", name, r.Status, r.Body)
		}
	}
	if r := e.Form("/v1/oauth/token", clientCredentials, local); r.Status != 403 {
		t.Errorf("token request from outside the allow-list: %d", r.Status)
	}
	// Invalid entries are refused, naming the entry.
	r = e.DoJSON(http.MethodPost, "/management/v1/projects/"+e.Project.ProjectID+"/api-keys",
		map[string]any{"allowed_ips": []string{"10.0.0.1", "10.0.0.0/33"}}, mk)
	if g := r.JSON(t); r.Status != 400 || g["details"] != `Property .allowed_ips[1] must be an IP address or CIDR prefix, got "10.0.0.0/33"` {
		t.Errorf("invalid allow-list: %d %s", r.Status, r.Body)
	}
	// An empty list allows any address again.
	e.DoJSON(http.MethodPut, resttest.AppKeyPath(e, local, ""), map[string]any{"allowed_ips": []string{}}, mk)
	if s := campaignStatus(e, local); s != 200 {
		t.Errorf("after clearing the allow-list: %d", s)
	}
}
