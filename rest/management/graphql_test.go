package management_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	created := resttest.ManagementGraphQL(t, e, mk, `mutation { createManagementProject(input: {name: "Graph shop", clientTrustedDomains: ["https://shop.example.com"]}) {
		project { id name clientTrustedDomains clientRedeemEnabled } serverSideKey { appID appToken } clientSideKey { appID appToken } } }`, nil)
	if len(created.Errors) > 0 {
		t.Fatalf("createManagementProject: %+v", created.Errors)
	}
	cp := created.Data["createManagementProject"].(map[string]any)
	project := cp["project"].(map[string]any)
	id := project["id"].(string)
	server := cp["serverSideKey"].(map[string]any)
	// The new server key works on the REST API.
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "From graph"},
		resttest.Headers{"X-App-Id": server["appID"].(string), "X-App-Token": server["appToken"].(string)}), http.StatusOK)

	upd := resttest.ManagementGraphQL(t, e, mk, `mutation($id: ID!) { updateManagementProject(id: $id, input: {clientRedeemEnabled: true, currency: "EUR"}) { clientRedeemEnabled currency name } }`, map[string]any{"id": id})
	if len(upd.Errors) > 0 || upd.Data["updateManagementProject"].(map[string]any)["currency"] != "EUR" {
		t.Errorf("updateManagementProject = %+v", upd)
	}
	bad := resttest.ManagementGraphQL(t, e, mk, `mutation($id: ID!) { updateManagementProject(id: $id, input: {currency: "euro"}) { id } }`, map[string]any{"id": id})
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("invalid currency = %+v", bad)
	}
	list := resttest.ManagementGraphQL(t, e, mk, `{ managementProjects(limit: 100) { total data { id } } }`, nil)
	if len(list.Errors) > 0 || list.Data["managementProjects"].(map[string]any)["total"] != float64(2) {
		t.Errorf("managementProjects = %+v", list)
	}

	key := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!) { createManagementApiKey(projectID: $p, client: true, input: {name: "web"}) { key { appID side name } token } }`, map[string]any{"p": id})
	if len(key.Errors) > 0 || key.Data["createManagementApiKey"].(map[string]any)["key"].(map[string]any)["side"] != "CLIENT" {
		t.Fatalf("createManagementApiKey = %+v", key)
	}
	appID := key.Data["createManagementApiKey"].(map[string]any)["key"].(map[string]any)["appID"].(string)
	keys := resttest.ManagementGraphQL(t, e, mk, `query($p: ID!) { managementApiKeys(projectID: $p, client: true) { appID } }`, map[string]any{"p": id})
	if len(keys.Errors) > 0 || len(keys.Data["managementApiKeys"].([]any)) != 2 {
		t.Errorf("managementApiKeys = %+v", keys)
	}
	blocked := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!, $a: ID!) { setManagementApiKeyBlocked(projectID: $p, appID: $a, blocked: true) { status } }`, map[string]any{"p": id, "a": appID})
	if len(blocked.Errors) > 0 || blocked.Data["setManagementApiKeyBlocked"].(map[string]any)["status"] != "BLOCKED" {
		t.Errorf("setManagementApiKeyBlocked = %+v", blocked)
	}
	gone := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!, $a: ID!) { deleteManagementApiKey(projectID: $p, appID: $a) }`, map[string]any{"p": id, "a": appID})
	if len(gone.Errors) > 0 || gone.Data["deleteManagementApiKey"] != appID {
		t.Errorf("deleteManagementApiKey = %+v", gone)
	}
	// Another project's key is not reachable through this project.
	wrong := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!, $a: ID!) { regenerateManagementApiKey(projectID: $p, appID: $a) { token } }`,
		map[string]any{"p": id, "a": e.Project.AppID})
	if len(wrong.Errors) != 1 || wrong.Errors[0].Extensions["code"] != float64(404) {
		t.Errorf("another project's key = %+v", wrong)
	}

	// Webhooks through the management graph.
	hook := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!) { createManagementWebhook(projectID: $p, input: {targetURL: "https://hooks.example.com/in", events: ["voucher.published"]}) { id active events } }`, map[string]any{"p": id})
	if len(hook.Errors) > 0 || hook.Data["createManagementWebhook"].(map[string]any)["active"] != true {
		t.Fatalf("createManagementWebhook = %+v", hook)
	}
	hookID := hook.Data["createManagementWebhook"].(map[string]any)["id"].(string)
	hooks := resttest.ManagementGraphQL(t, e, mk, `query($p: ID!, $w: ID!) { managementWebhooks(projectID: $p) { id targetURL }
		managementWebhookEvents(projectID: $p, webhookID: $w) { total } managementWebhookDeliveries(projectID: $p, webhookID: $w) { total } }`,
		map[string]any{"p": id, "w": hookID})
	if len(hooks.Errors) > 0 || len(hooks.Data["managementWebhooks"].([]any)) != 1 || hooks.Data["managementWebhookEvents"].(map[string]any)["total"] != float64(0) {
		t.Errorf("webhook queries = %+v", hooks)
	}
	badHook := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!) { createManagementWebhook(projectID: $p, input: {targetURL: "ftp://x", events: ["voucher.published"]}) { id } }`, map[string]any{"p": id})
	if len(badHook.Errors) != 1 || badHook.Errors[0].Extensions["code"] != float64(400) {
		t.Errorf("invalid target = %+v", badHook)
	}
	delHook := resttest.ManagementGraphQL(t, e, mk, `mutation($p: ID!, $w: ID!) { deleteManagementWebhook(projectID: $p, id: $w) }`, map[string]any{"p": id, "w": hookID})
	if len(delHook.Errors) > 0 || delHook.Data["deleteManagementWebhook"] != hookID {
		t.Errorf("deleteManagementWebhook = %+v", delHook)
	}

	// Management fields need management keys on /management/graphql.
	if r := resttest.ManagementGraphQL(t, e, resttest.App(e.Project), `{ managementProjects { total } }`, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("/management/graphql with application keys: %d %+v", r.Status, r.Errors)
	}
	onAppGraph := e.GraphQL(resttest.App(e.Project), `{ managementProjects { total } }`, nil)
	if len(onAppGraph.Errors) != 1 || onAppGraph.Errors[0].Extensions["code"] != float64(401) {
		t.Errorf("management field on /graphql = %+v", onAppGraph)
	}
	// Project data is not reachable on the management endpoint without a project.
	noProject := resttest.ManagementGraphQL(t, e, mk, `{ campaigns(first: 1) { totalCount } }`, nil)
	if len(noProject.Errors) == 0 || noProject.Errors[0].Extensions["code"] == float64(500) || strings.Contains(noProject.Errors[0].Message, "SQL") {
		t.Errorf("project field on /management/graphql = %+v", noProject)
	}
}

func TestOAuthThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	issued := e.GraphQL(app, `mutation { issueOAuthToken(scope: "api") { accessToken tokenType expiresIn scope clientID } }`, nil)
	if len(issued.Errors) > 0 {
		t.Fatalf("issueOAuthToken: %+v", issued.Errors)
	}
	tok := issued.Data["issueOAuthToken"].(map[string]any)
	access := tok["accessToken"].(string)
	if tok["tokenType"] != "Bearer" || tok["expiresIn"] != float64(900) || tok["clientID"] != e.Project.AppID {
		t.Errorf("token = %v", tok)
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns", nil, resttest.Bearer(access)), http.StatusOK)
	intro := e.GraphQL(app, `query($t: String!) { introspectOAuthToken(accessToken: $t) { active scope } }`, map[string]any{"t": access})
	if len(intro.Errors) > 0 || intro.Data["introspectOAuthToken"].(map[string]any)["active"] != true {
		t.Errorf("introspect = %+v", intro)
	}
	// A token cannot mint tokens.
	minted := e.GraphQL(resttest.Bearer(access), `mutation { issueOAuthToken(scope: "api") { accessToken } }`, nil)
	if len(minted.Errors) != 1 || minted.Errors[0].Extensions["code"] != float64(403) {
		t.Errorf("issue with a bearer token = %+v", minted)
	}
	revoked := e.GraphQL(app, `mutation($t: String!) { revokeOAuthToken(accessToken: $t) }`, map[string]any{"t": access})
	if len(revoked.Errors) > 0 || revoked.Data["revokeOAuthToken"] != true {
		t.Errorf("revoke = %+v", revoked)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns", nil, resttest.Bearer(access)), http.StatusUnauthorized, "unauthorized", "")
	inactive := e.GraphQL(app, `query($t: String!) { introspectOAuthToken(accessToken: $t) { active accessToken } }`, map[string]any{"t": access})
	if len(inactive.Errors) > 0 || inactive.Data["introspectOAuthToken"].(map[string]any)["active"] != false {
		t.Errorf("introspect after revoke = %+v", inactive)
	}
	bad := e.GraphQL(app, `mutation { issueOAuthToken(scope: "everything") { accessToken } }`, nil)
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_scope" {
		t.Errorf("invalid scope = %+v", bad)
	}
}
