package management_test

import (
	"context"
	"net/http"
	"testing"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/migrate"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/resttest"
)

// projectRows counts a project's rows in every table with a project_id
// column, by table.
func projectRows(t *testing.T, e *resttest.Env, projectID string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tbl := range migrate.Tables {
		owned := false
		for _, c := range tbl.Columns {
			owned = owned || c.Name == "project_id"
		}
		if !owned {
			continue
		}
		q, args := entsql.Dialect(e.DB.Dialect).Select(entsql.Count("*")).From(entsql.Table(tbl.Name)).
			Where(entsql.EQ("project_id", projectID)).Query()
		var n int
		if err := e.DB.SQL.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
			t.Fatalf("counting %s: %v", tbl.Name, err)
		}
		if n > 0 {
			out[tbl.Name] = n
		}
	}
	return out
}

// fillProject gives a project data of many kinds through its own keys and
// the management API.
func fillProject(t *testing.T, e *resttest.Env, mk resttest.Headers, projectID string, app resttest.Headers) {
	t.Helper()
	resttest.DiscountCode(t, e, app, "Spring", "SPRING-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "SPRING-1",
		"customer": map[string]any{"source_id": "alice"}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "SPRING-1"}}, "customer": map[string]any{"source_id": "alice"},
		"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(projectID, "/custom-event-schemas"),
		map[string]any{"name": "signed_up", "schema": map[string]any{"properties": map[string]any{}}}, mk), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "signed_up",
		"customer": map[string]any{"source_id": "alice"}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(projectID, "/branding"), resttest.BrandingPayload(), mk), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(projectID, "/webhooks"),
		map[string]any{"target_url": "https://hooks.example.com/in", "events": []string{"voucher.published"}}, mk), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(projectID, "/stacking-rules"), map[string]any{"redeemables_limit": 10}, mk), http.StatusOK)
	e.Token(app, "api")
}

func TestDeleteProjectRemovesEverythingAndItsKeysStopWorking(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	created := resttest.Must(t, e.DoJSON(http.MethodPost, "/management/v1/projects",
		map[string]any{"name": "Doomed", "client_trusted_domains": []string{"https://shop.example.com"}}, mk), http.StatusOK)
	id := created["id"].(string)
	server := created["server_side_key"].(map[string]any)
	client := created["client_side_key"].(map[string]any)
	app := resttest.Headers{"X-App-Id": server["app_id"].(string), "X-App-Token": server["app_token"].(string)}
	cl := resttest.Client(access.ProjectCredentials{ClientAppID: client["app_id"].(string),
		ClientAppToken: client["app_token"].(string)}, "https://shop.example.com")
	// A user who also works on the env's project, and is assigned here.
	ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID}), e.DB.Client)
	if err := graph.InTx(ctx, func(ctx context.Context) error {
		_, err := access.PutProjectUser(ctx, access.ProjectUserInput{Email: "sam@example.com", Role: "ADMIN"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(id, "/users"), map[string]any{"login": "sam@example.com", "role": "USER"}, mk), http.StatusOK)
	fillProject(t, e, mk, id, app)
	// The env's own project has data too, which must survive.
	keep := resttest.App(e.Project)
	fillProject(t, e, mk, e.Project.ProjectID, keep)
	bearer := resttest.Bearer(e.Token(app, "api"))
	resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns", nil, bearer), http.StatusOK)
	resttest.Must(t, e.Do(http.MethodGet, "/client/v1/validate?code=SPRING-1", nil, cl), http.StatusOK)

	before, kept := projectRows(t, e, id), projectRows(t, e, e.Project.ProjectID)
	for _, table := range []string{"app_keys", "campaigns", "vouchers", "customers", "publications", "redemptions",
		"custom_events", "metadata_schemas", "brandings", "webhooks", "oauth_tokens", "project_users"} {
		if before[table] == 0 {
			t.Errorf("the project has no %s before the delete: %v", table, before)
		}
	}

	resp := e.Do(http.MethodDelete, resttest.ProjectPath(id), nil, mk)
	if resp.Status != http.StatusNoContent || len(resp.Body) != 0 {
		t.Fatalf("delete: %d %s", resp.Status, resp.Body)
	}
	if left := projectRows(t, e, id); len(left) != 0 {
		t.Errorf("rows left of the deleted project: %v", left)
	}
	if after := projectRows(t, e, e.Project.ProjectID); resttest.MustJSON(after) != resttest.MustJSON(kept) {
		t.Errorf("the other project's rows changed: %v, was %v", after, kept)
	}
	// Its keys and tokens stop working at once; the project is gone.
	for name, r := range map[string]resttest.Response{
		"server key":   e.Do(http.MethodGet, "/v1/campaigns", nil, app),
		"bearer token": e.Do(http.MethodGet, "/v1/campaigns", nil, bearer),
		"client key":   e.Do(http.MethodGet, "/client/v1/validate?code=SPRING-1", nil, cl),
	} {
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s after delete: %d %s", name, r.Status, r.Body)
		}
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(id), nil, mk), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(id), nil, mk), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(id, "/branding"), nil, mk), http.StatusNotFound, "not_found")
	// The user stays, with its other project only; the name is free again.
	users := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(e.Project.ProjectID, "/users"), nil, mk), http.StatusOK)["data"].([]any)
	if p := users[0].(map[string]any)["projects"].(map[string]any); len(p) != 1 || p[e.Project.ProjectID] != "ADMIN" {
		t.Errorf("the user's projects after the delete: %v", p)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, "/management/v1/projects", map[string]any{"name": "Doomed"}, mk), http.StatusOK)
	// The env's project works as before.
	resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/SPRING-1", nil, keep), http.StatusOK)
}

func TestDeleteProjectThroughTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	other := e.NewProject("Other")
	const mutation = `mutation($id: ID!) { deleteManagementProject(id: $id) }`
	// Application keys are no management credentials, on either endpoint.
	if r := e.GraphQL(resttest.App(e.Project), mutation, map[string]any{"id": other.ProjectID}); len(r.Errors) != 1 ||
		r.Errors[0].Extensions["code"] != float64(401) {
		t.Fatalf("deleteManagementProject on /graphql: %+v", r)
	}
	if got := resttest.GQLData(t, e, mk, "deleteManagementProject", mutation, map[string]any{"id": other.ProjectID}); got != other.ProjectID {
		t.Fatalf("deleteManagementProject = %v", got)
	}
	if r := e.Do(http.MethodGet, "/v1/campaigns", nil, resttest.App(other)); r.Status != http.StatusUnauthorized {
		t.Errorf("deleted project's key: %d %s", r.Status, r.Body)
	}
	resttest.GQLError(t, e, mk, 404, "not_found", mutation, map[string]any{"id": other.ProjectID})
	resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns", nil, resttest.App(e.Project)), http.StatusOK)
}
