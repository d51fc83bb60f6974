package management_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestProjectNamesAreUniqueInTheManagementGraph: the graph refuses a taken
// name with the same 409 duplicate_found as REST.
func TestProjectNamesAreUniqueInTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	const create = `mutation($n: String!) { createManagementProject(input: {name: $n}) { project { id name } } }`
	shop := resttest.GQLObject(t, e, mk, "createManagementProject", create, map[string]any{"n": "Shop"})["project"].(map[string]any)
	resttest.GQLError(t, e, mk, 409, "duplicate_found", create, map[string]any{"n": "Shop"})
	resttest.GQLError(t, e, mk, 409, "duplicate_found", create, map[string]any{"n": "project A"}) // the env's project
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/management/v1/projects", map[string]any{"name": "Shop"}, mk), http.StatusConflict, "duplicate_found")
	const rename = `mutation($id: ID!, $n: String!) { updateManagementProject(id: $id, input: {name: $n}) { name } }`
	resttest.GQLError(t, e, mk, 409, "duplicate_found", rename, map[string]any{"id": e.Project.ProjectID, "n": " Shop "})
	if got := resttest.GQLObject(t, e, mk, "updateManagementProject", rename, map[string]any{"id": shop["id"], "n": "Shop"}); got["name"] != "Shop" {
		t.Errorf("keeping its own name: %v", got)
	}
	list := resttest.Must(t, e.Do(http.MethodGet, "/management/v1/projects", nil, mk), http.StatusOK)
	if list["total"] != float64(2) {
		t.Errorf("projects after the refusals: %v", list["total"])
	}
}

func TestWebhookTokenAndWebhookReadsInTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	before := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(pid), nil, mk), http.StatusOK)["webhook_token"]
	p := resttest.GQLObject(t, e, mk, "regenerateManagementWebhookToken", `mutation($p: ID!) { regenerateManagementWebhookToken(projectID: $p) { id webhookToken } }`,
		map[string]any{"p": pid})
	if p["webhookToken"] == before || p["webhookToken"] == "" {
		t.Errorf("token %v, was %v", p["webhookToken"], before)
	}
	if now := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(pid), nil, mk), http.StatusOK)["webhook_token"]; now != p["webhookToken"] {
		t.Errorf("REST shows %v, the graph %v", now, p["webhookToken"])
	}
	hook := resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(pid, "/webhooks"),
		map[string]any{"target_url": "https://hooks.example.com/in", "events": []string{"voucher.published"}}, mk), http.StatusOK)
	vars := map[string]any{"p": pid, "id": hook["id"]}
	got := resttest.GQLObject(t, e, mk, "managementWebhook", `query($p: ID!, $id: ID!) { managementWebhook(projectID: $p, id: $id) { id targetURL events } }`, vars)
	if got["targetURL"] != "https://hooks.example.com/in" {
		t.Errorf("managementWebhook = %v", got)
	}
	other := e.NewProject("Other").ProjectID
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $id: ID!) { managementWebhook(projectID: $p, id: $id) { id } }`,
		map[string]any{"p": other, "id": hook["id"]})
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(other, "/webhooks/", hook["id"].(string)), nil, mk), http.StatusNotFound, "not_found")
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $w: ID!) { managementWebhookEvent(projectID: $p, webhookID: $w, eventID: "whev_none") { id } }`,
		map[string]any{"p": pid, "w": hook["id"]})
}
