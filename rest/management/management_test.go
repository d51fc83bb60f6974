package management_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/rest/resttest"
)

func setFeatures(t *testing.T, e *resttest.Env, projectID string, enable, disable []string) {
	t.Helper()
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		_, err := access.SetProjectFeatures(ctx, projectID, enable, disable)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestManagementFeaturesAndProjects(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	// Unknown project.
	for _, r := range []resttest.Response{
		e.DoJSON(http.MethodPost, "/management/v1/projects/proj_nothere/branding", resttest.BrandingPayload(), mk),
		e.Do(http.MethodGet, "/management/v1/projects/proj_nothere/users", nil, mk),
	} {
		if g := r.JSON(t); r.Status != 404 || g["key"] != "not_found" || g["resource_type"] != "project" || g["resource_id"] != "proj_nothere" {
			t.Errorf("unknown project: %d %s", r.Status, r.Body)
		}
	}
	// Without the features: 402, and nothing stored.
	setFeatures(t, e, pid, nil, feature.All)
	for _, r := range []resttest.Response{
		e.DoJSON(http.MethodPost, "/management/v1/projects/"+pid+"/branding", resttest.BrandingPayload(), mk),
		e.Do(http.MethodGet, "/management/v1/projects/"+pid+"/users", nil, mk),
	} {
		if g := r.JSON(t); r.Status != 402 || g["key"] != "missing_required_feature" || g["message"] != "Payment required" {
			t.Errorf("without feature: %d %s", r.Status, r.Body)
		}
	}
	if n := e.DB.Client.Branding.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("brand stored without the feature")
	}
	// Enabling one feature allows exactly that operation.
	setFeatures(t, e, pid, []string{feature.UsersManagement}, nil)
	if r := e.Do(http.MethodGet, "/management/v1/projects/"+pid+"/users", nil, mk); r.Status != 200 {
		t.Errorf("users with the feature: %d %s", r.Status, r.Body)
	}
	if r := e.DoJSON(http.MethodPost, "/management/v1/projects/"+pid+"/branding", resttest.BrandingPayload(), mk); r.Status != 402 {
		t.Errorf("branding without its feature: %d %s", r.Status, r.Body)
	}
}

func TestListProjectUsers(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a, b := e.Project.ProjectID, e.NewProject("B").ProjectID
	put := func(project string, in access.ProjectUserInput) {
		ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: project}), e.DB.Client)
		if err := graph.InTx(ctx, func(ctx context.Context) error { _, err := access.PutProjectUser(ctx, in); return err }); err != nil {
			t.Fatal(err)
		}
	}
	first, owner := "Sammy", true
	put(a, access.ProjectUserInput{Email: "sammy@example.com", FirstName: &first, Role: "admin", IsOwner: &owner})
	put(b, access.ProjectUserInput{Email: "sammy@example.com", Role: "USER"})
	put(a, access.ProjectUserInput{Email: "viewer@example.com", Login: "viewer", Role: "VIEWER"})
	put(b, access.ProjectUserInput{Email: "only-b@example.com", Role: "USER"})

	resp := e.Do(http.MethodGet, "/management/v1/projects/"+a+"/users", nil, mk)
	got := resp.JSON(t)
	if resp.Status != 200 || got["object"] != "list" || got["data_ref"] != "data" || got["total"] != float64(2) {
		t.Fatalf("users: %d %s", resp.Status, resp.Body)
	}
	users := got["data"].([]any)
	u0, u1 := users[0].(map[string]any), users[1].(map[string]any)
	if !regexp.MustCompile(`^user_[0-9A-Za-z]{32}$`).MatchString(u0["id"].(string)) || u0["login"] != "sammy@example.com" ||
		u0["email"] != "sammy@example.com" || u0["first_name"] != "Sammy" || u0["last_name"] != "" || u0["is_owner"] != true {
		t.Errorf("first user: %v", u0)
	}
	if p := u0["projects"].(map[string]any); len(p) != 2 || p[a] != "ADMIN" || p[b] != "USER" {
		t.Errorf("first user's projects: %v", p)
	}
	if u1["login"] != "viewer" || u1["is_owner"] != false || len(u1["projects"].(map[string]any)) != 1 {
		t.Errorf("second user: %v", u1)
	}
	// Changing a role replaces it.
	put(a, access.ProjectUserInput{Email: "viewer@example.com", Login: "viewer", Role: "MERCHANT"})
	resp = e.Do(http.MethodGet, "/management/v1/projects/"+a+"/users", nil, mk)
	if !strings.Contains(string(resp.Body), `"`+a+`":"MERCHANT"`) || resp.JSON(t)["total"] != float64(2) {
		t.Errorf("after role change: %s", resp.Body)
	}
}

// TestProjectNamesAreUnique: a second project of one name — created through
// the management API, renamed onto it, raced by parallel requests, or made
// by the operator CLI's graph.CreateProject — is 409 duplicate_found.
func TestProjectNamesAreUnique(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	create := func(name string) resttest.Response {
		return e.DoJSON(http.MethodPost, "/management/v1/projects", map[string]any{"name": name}, mk)
	}
	shop := resttest.Must(t, create("Shop"), http.StatusOK)
	body := resttest.WantErrorKey(t, create("Shop"), http.StatusConflict, "duplicate_found")
	if body["message"] != "Duplicated resource found" || body["resource_type"] != "project" ||
		!strings.Contains(body["details"].(string), `"Shop"`) {
		t.Errorf("duplicate create: %v", body)
	}
	resttest.WantErrorKey(t, create("project A"), http.StatusConflict, "duplicate_found") // the env's first project
	// Renaming onto another project's name is refused; keeping one's own
	// name (or renaming to a free one) is not.
	other := resttest.Must(t, create("Outlet"), http.StatusOK)["id"].(string)
	rename := func(id, name string) resttest.Response {
		return e.DoJSON(http.MethodPut, "/management/v1/projects/"+id, map[string]any{"name": name}, mk)
	}
	resttest.WantErrorKey(t, rename(other, "Shop"), http.StatusConflict, "duplicate_found")
	resttest.WantErrorKey(t, rename(other, "  Shop "), http.StatusConflict, "duplicate_found") // names are trimmed
	if got := resttest.Must(t, rename(shop["id"].(string), "Shop"), http.StatusOK); got["name"] != "Shop" {
		t.Errorf("keeping its name: %v", got)
	}
	if got := resttest.Must(t, rename(other, "Outlet EU"), http.StatusOK); got["name"] != "Outlet EU" {
		t.Errorf("free rename: %v", got)
	}
	// The operator CLI path refuses too.
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		_, err := access.CreateProject(ctx, "Shop", "", "")
		return err
	})
	if ae, ok := apperr.As(err); !ok || ae.Code != http.StatusConflict || ae.Key != "duplicate_found" {
		t.Errorf("CreateProject with a taken name: %v", err)
	}
	// Parallel creates of one new name: exactly one wins (the unique
	// index decides, also across server processes on PostgreSQL).
	var wg sync.WaitGroup
	statuses := make(chan int, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- create("Race").Status
		}()
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	if count[http.StatusOK] != 1 || count[http.StatusConflict] != 7 {
		t.Errorf("parallel creates: %v", count)
	}
	list := resttest.Must(t, e.Do(http.MethodGet, "/management/v1/projects?limit=100", nil, mk), http.StatusOK)
	if list["total"] != float64(4) {
		t.Errorf("projects after the refusals: %v", list["total"])
	}
}
