package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/resttest"
)

// addUser makes a user with a role in project (the operator's
// `promoengine user add`) and returns its id.
func addUser(t *testing.T, e *resttest.Env, project, email, role string) string {
	t.Helper()
	ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: project}), e.DB.Client)
	var u *ent.User
	err := graph.InTx(ctx, func(ctx context.Context) error {
		var err error
		u, err = access.PutProjectUser(ctx, access.ProjectUserInput{Email: email, Role: role})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func TestProjectUserLifecycle(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a, b := e.Project.ProjectID, e.NewProject("B").ProjectID
	sam := addUser(t, e, a, "sam@example.com", "ADMIN")
	alex := addUser(t, e, a, "alex@example.com", "USER")

	// Assign by login and by id.
	got := must(t, e.DoJSON(http.MethodPost, projectPath(b, "/users"), map[string]any{"login": "sam@example.com", "role": "viewer"}, mk), http.StatusOK)
	if p := got["projects"].(map[string]any); got["id"] != sam || len(p) != 2 || p[a] != "ADMIN" || p[b] != "VIEWER" {
		t.Errorf("assigned: %v", got)
	}
	must(t, e.DoJSON(http.MethodPost, projectPath(b, "/users"), map[string]any{"id": alex, "role": "USER"}, mk), http.StatusOK)
	if l := must(t, e.Do(http.MethodGet, projectPath(b, "/users"), nil, mk), http.StatusOK); l["total"] != float64(2) {
		t.Errorf("B's users: %v", l)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, projectPath(b, "/users"), map[string]any{"id": alex, "role": "USER"}, mk),
		http.StatusConflict, "duplicate_found")
	wantErrorKey(t, e.DoJSON(http.MethodPost, projectPath(b, "/users"), map[string]any{"login": "nobody@example.com", "role": "USER"}, mk),
		http.StatusNotFound, "not_found")
	for name, body := range map[string]map[string]any{
		"both":     {"id": alex, "login": "alex@example.com", "role": "USER"},
		"neither":  {"role": "USER"},
		"bad role": {"id": alex, "role": "not a role"},
	} {
		if r := e.DoJSON(http.MethodPost, projectPath(b, "/users"), body, mk); r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}

	// Get and update the role.
	if u := must(t, e.Do(http.MethodGet, projectPath(b, "/users/", sam), nil, mk), http.StatusOK); u["login"] != "sam@example.com" || u["email"] != "sam@example.com" {
		t.Errorf("get: %v", u)
	}
	upd := must(t, e.DoJSON(http.MethodPut, projectPath(b, "/users/", sam), map[string]any{"role": "MERCHANT"}, mk), http.StatusOK)
	if p := upd["projects"].(map[string]any); p[b] != "MERCHANT" || p[a] != "ADMIN" {
		t.Errorf("updated: %v", upd)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPut, projectPath(b, "/users/", sam), map[string]any{"role": ""}, mk), http.StatusBadRequest, "invalid_payload")

	// Tenancy: a user of A only is not reachable through B's path.
	carol := addUser(t, e, a, "carol@example.com", "USER")
	notFound := wantErrorKey(t, e.Do(http.MethodGet, projectPath(b, "/users/", carol), nil, mk), http.StatusNotFound, "not_found")
	if notFound["resource_type"] != "user" || notFound["resource_id"] != carol {
		t.Errorf("404: %v", notFound)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPut, projectPath(b, "/users/", carol), map[string]any{"role": "ADMIN"}, mk), http.StatusNotFound, "not_found")

	// Unassign: not assigned → 400 user_not_assigned, unknown → 404, the
	// only project → 400 last_project; otherwise 204 and gone.
	wantErrorKey(t, e.Do(http.MethodDelete, projectPath(b, "/users/", carol), nil, mk), http.StatusBadRequest, "user_not_assigned")
	wantErrorKey(t, e.Do(http.MethodDelete, projectPath(b, "/users/user_nothere"), nil, mk), http.StatusNotFound, "not_found")
	wantErrorKey(t, e.Do(http.MethodDelete, projectPath(a, "/users/", carol), nil, mk), http.StatusBadRequest, "last_project")
	if r := e.Do(http.MethodDelete, projectPath(b, "/users/", sam), nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("unassign: %d %s", r.Status, r.Body)
	}
	wantErrorKey(t, e.Do(http.MethodGet, projectPath(b, "/users/", sam), nil, mk), http.StatusNotFound, "not_found")
	if u := must(t, e.Do(http.MethodGet, projectPath(a, "/users/", sam), nil, mk), http.StatusOK); len(u["projects"].(map[string]any)) != 1 {
		t.Errorf("sam after unassign: %v", u)
	}

	// Without the users feature: 402.
	setFeatures(t, e, b, nil, []string{feature.UsersManagement})
	for _, r := range []resttest.Response{
		e.DoJSON(http.MethodPost, projectPath(b, "/users"), map[string]any{"id": carol, "role": "USER"}, mk),
		e.Do(http.MethodGet, projectPath(b, "/users/", alex), nil, mk),
		e.DoJSON(http.MethodPut, projectPath(b, "/users/", alex), map[string]any{"role": "USER"}, mk),
		e.Do(http.MethodDelete, projectPath(b, "/users/", alex), nil, mk),
	} {
		wantErrorKey(t, r, http.StatusPaymentRequired, "missing_required_feature")
	}
}

func TestProjectUsersThroughTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a, b := e.Project.ProjectID, e.NewProject("B").ProjectID
	sam := addUser(t, e, a, "sam@example.com", "ADMIN")
	vars := map[string]any{"p": b, "u": sam}
	const fields = `id login email firstName lastName isOwner role roles { projectID role }`
	u := gqlObject(t, e, mk, "assignManagementUser", `mutation($p: ID!, $u: ID!) { assignManagementUser(projectID: $p, input: {id: $u, role: "USER"}) { `+fields+` } }`, vars)
	if u["role"] != "USER" || len(u["roles"].([]any)) != 2 || u["login"] != "sam@example.com" {
		t.Errorf("assignManagementUser = %v", u)
	}
	gqlError(t, e, mk, 409, "duplicate_found", `mutation($p: ID!, $u: ID!) { assignManagementUser(projectID: $p, input: {id: $u, role: "USER"}) { id } }`, vars)
	upd := gqlObject(t, e, mk, "updateManagementUser", `mutation($p: ID!, $u: ID!) { updateManagementUser(projectID: $p, userID: $u, role: "admin") { role } }`, vars)
	if upd["role"] != "ADMIN" {
		t.Errorf("updateManagementUser = %v", upd)
	}
	// REST sees the change.
	if p := must(t, e.Do(http.MethodGet, projectPath(b, "/users/", sam), nil, mk), http.StatusOK)["projects"].(map[string]any); p[b] != "ADMIN" {
		t.Errorf("REST after the graph's update: %v", p)
	}
	list := gqlData(t, e, mk, "managementUsers", `query($p: ID!) { managementUsers(projectID: $p) { id } }`, map[string]any{"p": b})
	if l := list.([]any); len(l) != 1 || l[0].(map[string]any)["id"] != sam {
		t.Errorf("managementUsers = %v", list)
	}
	carol := addUser(t, e, a, "carol@example.com", "USER")
	gqlError(t, e, mk, 404, "not_found", `query($p: ID!, $u: ID!) { managementUser(projectID: $p, userID: $u) { id } }`, map[string]any{"p": b, "u": carol})
	gqlError(t, e, mk, 400, "user_not_assigned", `mutation($p: ID!, $u: ID!) { unassignManagementUser(projectID: $p, userID: $u) }`, map[string]any{"p": b, "u": carol})
	if got := gqlData(t, e, mk, "unassignManagementUser", `mutation($p: ID!, $u: ID!) { unassignManagementUser(projectID: $p, userID: $u) }`, vars); got != sam {
		t.Errorf("unassignManagementUser = %v", got)
	}
	gqlError(t, e, mk, 400, "last_project", `mutation($p: ID!, $u: ID!) { unassignManagementUser(projectID: $p, userID: $u) }`, map[string]any{"p": a, "u": sam})
}
