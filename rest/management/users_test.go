package management_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestProjectUserLifecycle(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a, b := e.Project.ProjectID, e.NewProject("B").ProjectID
	sam := resttest.AddUser(t, e, a, "sam@example.com", "ADMIN")
	alex := resttest.AddUser(t, e, a, "alex@example.com", "USER")

	// Assign by login and by id.
	got := resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/users"), map[string]any{"login": "sam@example.com", "role": "viewer"}, mk), http.StatusOK)
	if p := got["projects"].(map[string]any); got["id"] != sam || len(p) != 2 || p[a] != "ADMIN" || p[b] != "VIEWER" {
		t.Errorf("assigned: %v", got)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/users"), map[string]any{"id": alex, "role": "USER"}, mk), http.StatusOK)
	if l := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(b, "/users"), nil, mk), http.StatusOK); l["total"] != float64(2) {
		t.Errorf("B's users: %v", l)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/users"), map[string]any{"id": alex, "role": "USER"}, mk),
		http.StatusConflict, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/users"), map[string]any{"login": "nobody@example.com", "role": "USER"}, mk),
		http.StatusNotFound, "not_found")
	for name, body := range map[string]map[string]any{
		"both":     {"id": alex, "login": "alex@example.com", "role": "USER"},
		"neither":  {"role": "USER"},
		"bad role": {"id": alex, "role": "not a role"},
	} {
		if r := e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/users"), body, mk); r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}

	// Get and update the role.
	if u := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(b, "/users/", sam), nil, mk), http.StatusOK); u["login"] != "sam@example.com" || u["email"] != "sam@example.com" {
		t.Errorf("get: %v", u)
	}
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, resttest.ProjectPath(b, "/users/", sam), map[string]any{"role": "MERCHANT"}, mk), http.StatusOK)
	if p := upd["projects"].(map[string]any); p[b] != "MERCHANT" || p[a] != "ADMIN" {
		t.Errorf("updated: %v", upd)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, resttest.ProjectPath(b, "/users/", sam), map[string]any{"role": ""}, mk), http.StatusBadRequest, "invalid_payload")

	// Tenancy: a user of A only is not reachable through B's path.
	carol := resttest.AddUser(t, e, a, "carol@example.com", "USER")
	notFound := resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(b, "/users/", carol), nil, mk), http.StatusNotFound, "not_found")
	if notFound["resource_type"] != "user" || notFound["resource_id"] != carol {
		t.Errorf("404: %v", notFound)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, resttest.ProjectPath(b, "/users/", carol), map[string]any{"role": "ADMIN"}, mk), http.StatusNotFound, "not_found")

	// Unassign: not assigned → 400 user_not_assigned, unknown → 404, the
	// only project → 400 last_project; otherwise 204 and gone.
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(b, "/users/", carol), nil, mk), http.StatusBadRequest, "user_not_assigned")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(b, "/users/user_nothere"), nil, mk), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(a, "/users/", carol), nil, mk), http.StatusBadRequest, "last_project")
	if r := e.Do(http.MethodDelete, resttest.ProjectPath(b, "/users/", sam), nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("unassign: %d %s", r.Status, r.Body)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(b, "/users/", sam), nil, mk), http.StatusNotFound, "not_found")
	if u := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(a, "/users/", sam), nil, mk), http.StatusOK); len(u["projects"].(map[string]any)) != 1 {
		t.Errorf("sam after unassign: %v", u)
	}

	// Without the users feature: 402.
	setFeatures(t, e, b, nil, []string{feature.UsersManagement})
	for _, r := range []resttest.Response{
		e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/users"), map[string]any{"id": carol, "role": "USER"}, mk),
		e.Do(http.MethodGet, resttest.ProjectPath(b, "/users/", alex), nil, mk),
		e.DoJSON(http.MethodPut, resttest.ProjectPath(b, "/users/", alex), map[string]any{"role": "USER"}, mk),
		e.Do(http.MethodDelete, resttest.ProjectPath(b, "/users/", alex), nil, mk),
	} {
		resttest.WantErrorKey(t, r, http.StatusPaymentRequired, "missing_required_feature")
	}
}

func TestProjectUsersThroughTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a, b := e.Project.ProjectID, e.NewProject("B").ProjectID
	sam := resttest.AddUser(t, e, a, "sam@example.com", "ADMIN")
	vars := map[string]any{"p": b, "u": sam}
	const fields = `id login email firstName lastName isOwner role roles { projectID role }`
	u := resttest.GQLObject(t, e, mk, "assignManagementUser", `mutation($p: ID!, $u: ID!) { assignManagementUser(projectID: $p, input: {id: $u, role: "USER"}) { `+fields+` } }`, vars)
	if u["role"] != "USER" || len(u["roles"].([]any)) != 2 || u["login"] != "sam@example.com" {
		t.Errorf("assignManagementUser = %v", u)
	}
	resttest.GQLError(t, e, mk, 409, "duplicate_found", `mutation($p: ID!, $u: ID!) { assignManagementUser(projectID: $p, input: {id: $u, role: "USER"}) { id } }`, vars)
	upd := resttest.GQLObject(t, e, mk, "updateManagementUser", `mutation($p: ID!, $u: ID!) { updateManagementUser(projectID: $p, userID: $u, role: "admin") { role } }`, vars)
	if upd["role"] != "ADMIN" {
		t.Errorf("updateManagementUser = %v", upd)
	}
	// REST sees the change.
	if p := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(b, "/users/", sam), nil, mk), http.StatusOK)["projects"].(map[string]any); p[b] != "ADMIN" {
		t.Errorf("REST after the graph's update: %v", p)
	}
	list := resttest.GQLData(t, e, mk, "managementUsers", `query($p: ID!) { managementUsers(projectID: $p) { id } }`, map[string]any{"p": b})
	if l := list.([]any); len(l) != 1 || l[0].(map[string]any)["id"] != sam {
		t.Errorf("managementUsers = %v", list)
	}
	carol := resttest.AddUser(t, e, a, "carol@example.com", "USER")
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $u: ID!) { managementUser(projectID: $p, userID: $u) { id } }`, map[string]any{"p": b, "u": carol})
	resttest.GQLError(t, e, mk, 400, "user_not_assigned", `mutation($p: ID!, $u: ID!) { unassignManagementUser(projectID: $p, userID: $u) }`, map[string]any{"p": b, "u": carol})
	if got := resttest.GQLData(t, e, mk, "unassignManagementUser", `mutation($p: ID!, $u: ID!) { unassignManagementUser(projectID: $p, userID: $u) }`, vars); got != sam {
		t.Errorf("unassignManagementUser = %v", got)
	}
	resttest.GQLError(t, e, mk, 400, "last_project", `mutation($p: ID!, $u: ID!) { unassignManagementUser(projectID: $p, userID: $u) }`, map[string]any{"p": a, "u": sam})
}
