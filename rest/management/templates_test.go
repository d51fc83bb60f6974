package management_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestManagementCampaignTemplates: a project's templates listed and
// copied into another project through the management API (management keys
// only), the copy usable there.
func TestManagementCampaignTemplates(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	bCreds := e.NewProject("B")
	a, b := e.Project.ProjectID, bCreds.ProjectID
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Spring",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app), http.StatusOK)
	tpl := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/templates/campaigns", map[string]any{"name": "T", "campaign_id": "Spring"}, app), http.StatusOK)
	id := tpl["id"].(string)

	l := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(a, "/templates/campaigns?include_total=true"), nil, mk), http.StatusOK)
	if l["total"] != float64(1) || l["data"].([]any)[0].(map[string]any)["id"] != id {
		t.Fatalf("A's templates: %v", l)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(a, "/templates/campaigns"), nil, app), http.StatusUnauthorized, "unauthorized")

	copyPath := resttest.ProjectPath(a, "/templates/campaigns/", id, "/copy")
	for _, bad := range []struct {
		body   map[string]any
		status int
	}{
		{map[string]any{"name": "Copy"}, http.StatusBadRequest},
		{map[string]any{"destination_project_id": b}, http.StatusBadRequest},
		{map[string]any{"name": "Copy", "destination_project_id": "proj_nope"}, http.StatusNotFound},
	} {
		if r := e.DoJSON(http.MethodPost, copyPath, bad.body, mk); r.Status != bad.status {
			t.Fatalf("copy %v: %d %s", bad.body, r.Status, r.Body)
		}
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, resttest.ProjectPath(b, "/templates/campaigns/", id, "/copy"),
		map[string]any{"name": "Copy", "destination_project_id": a}, mk), http.StatusNotFound, "not_found")
	copied := resttest.Must(t, e.DoJSON(http.MethodPost, copyPath, map[string]any{"name": "Copy", "destination_project_id": b}, mk), http.StatusOK)
	if copied["id"] == id || copied["name"] != "Copy" || copied["campaign_type"] != "DISCOUNT_COUPONS" {
		t.Fatalf("copy: %v", copied)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, copyPath, map[string]any{"name": "Copy", "destination_project_id": b}, mk),
		http.StatusConflict, "duplicate_found")
	// B uses its copy: a campaign of B with A's discount.
	bApp := resttest.App(bCreds)
	setup := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/templates/campaigns/"+copied["id"].(string)+"/campaign-setup",
		map[string]any{"name": "B spring"}, bApp), http.StatusOK)
	if d := setup["campaign"].(map[string]any)["voucher"].(map[string]any)["discount"].(map[string]any); d["amount_off"] != float64(100) {
		t.Fatalf("B's campaign: %v", setup)
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(b, "/templates/campaigns"), nil, mk), http.StatusOK); len(l["data"].([]any)) != 1 {
		t.Fatalf("B's templates: %v", l)
	}
}

// TestManagementUserInvitation: an invitation is checked (email, role,
// project, no existing member) before it is stored, a new one replaces it,
// and application keys cannot invite.
func TestManagementUserInvitation(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a := e.Project.ProjectID
	resttest.AddUser(t, e, a, "sam@example.com", "ADMIN")
	path := "/management/v1/projects/users/invite"
	invite := func(email, role, project string) map[string]any {
		return map[string]any{"email": email, "first_name": "Ann", "last_name": "Lee", "projects": map[string]any{project: role}}
	}
	for _, bad := range []struct {
		body   map[string]any
		status int
	}{
		{invite("not-an-email", "USER", a), http.StatusBadRequest},
		{invite("ann@example.com", "bad role", a), http.StatusBadRequest},
		{invite("ann@example.com", "USER", "proj_nope"), http.StatusNotFound},
		{invite("sam@example.com", "USER", a), http.StatusConflict},
		{map[string]any{"email": "ann@example.com", "first_name": "Ann", "last_name": "Lee"}, http.StatusBadRequest},
	} {
		if r := e.DoJSON(http.MethodPost, path, bad.body, mk); r.Status != bad.status {
			t.Fatalf("invite %v: %d %s", bad.body, r.Status, r.Body)
		}
	}
	if n := e.DB.Client.UserInvitation.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Fatalf("bad invitations stored: %d", n)
	}
	for range 2 { // inviting again replaces the invitation
		if r := e.DoJSON(http.MethodPost, path, invite("ann@example.com", "viewer", a), mk); r.Status != http.StatusNoContent || len(r.Body) != 0 {
			t.Fatalf("invite: %d %s", r.Status, r.Body)
		}
	}
	inv := e.DB.Client.UserInvitation.Query().AllX(resttest.SystemCtx())
	if len(inv) != 1 || inv[0].Email != "ann@example.com" || inv[0].Projects[a] != "VIEWER" {
		t.Fatalf("stored: %+v", inv)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, invite("bo@example.com", "USER", a), resttest.App(e.Project)),
		http.StatusUnauthorized, "unauthorized")
}
