package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestManagementCampaignTemplates(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	bCreds := e.NewProject("B")
	a, b := e.Project.ProjectID, bCreds.ProjectID
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Spring",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app), http.StatusOK)
	tpl := must(t, e.DoJSON(http.MethodPost, "/v1/templates/campaigns", map[string]any{"name": "T", "campaign_id": "Spring"}, app), http.StatusOK)
	id := tpl["id"].(string)

	l := must(t, e.Do(http.MethodGet, projectPath(a, "/templates/campaigns?include_total=true"), nil, mk), http.StatusOK)
	if l["total"] != float64(1) || l["data"].([]any)[0].(map[string]any)["id"] != id {
		t.Fatalf("A's templates: %v", l)
	}
	wantErrorKey(t, e.Do(http.MethodGet, projectPath(a, "/templates/campaigns"), nil, app), http.StatusUnauthorized, "unauthorized")

	copyPath := projectPath(a, "/templates/campaigns/", id, "/copy")
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
	wantErrorKey(t, e.DoJSON(http.MethodPost, projectPath(b, "/templates/campaigns/", id, "/copy"),
		map[string]any{"name": "Copy", "destination_project_id": a}, mk), http.StatusNotFound, "not_found")
	copied := must(t, e.DoJSON(http.MethodPost, copyPath, map[string]any{"name": "Copy", "destination_project_id": b}, mk), http.StatusOK)
	if copied["id"] == id || copied["name"] != "Copy" || copied["campaign_type"] != "DISCOUNT_COUPONS" {
		t.Fatalf("copy: %v", copied)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, copyPath, map[string]any{"name": "Copy", "destination_project_id": b}, mk),
		http.StatusConflict, "duplicate_found")
	// B uses its copy: a campaign of B with A's discount.
	bApp := resttest.App(bCreds)
	setup := must(t, e.DoJSON(http.MethodPost, "/v1/templates/campaigns/"+copied["id"].(string)+"/campaign-setup",
		map[string]any{"name": "B spring"}, bApp), http.StatusOK)
	if d := setup["campaign"].(map[string]any)["voucher"].(map[string]any)["discount"].(map[string]any); d["amount_off"] != float64(100) {
		t.Fatalf("B's campaign: %v", setup)
	}
	if l := must(t, e.Do(http.MethodGet, projectPath(b, "/templates/campaigns"), nil, mk), http.StatusOK); len(l["data"].([]any)) != 1 {
		t.Fatalf("B's templates: %v", l)
	}
}

func TestManagementUserInvitation(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	a := e.Project.ProjectID
	addUser(t, e, a, "sam@example.com", "ADMIN")
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
	if n := e.DB.Client.UserInvitation.Query().CountX(systemCtx()); n != 0 {
		t.Fatalf("bad invitations stored: %d", n)
	}
	for range 2 { // inviting again replaces the invitation
		if r := e.DoJSON(http.MethodPost, path, invite("ann@example.com", "viewer", a), mk); r.Status != http.StatusNoContent || len(r.Body) != 0 {
			t.Fatalf("invite: %d %s", r.Status, r.Body)
		}
	}
	inv := e.DB.Client.UserInvitation.Query().AllX(systemCtx())
	if len(inv) != 1 || inv[0].Email != "ann@example.com" || inv[0].Projects[a] != "VIEWER" {
		t.Fatalf("stored: %+v", inv)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, path, invite("bo@example.com", "USER", a), resttest.App(e.Project)),
		http.StatusUnauthorized, "unauthorized")
}

func TestLocations(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("Other"))
	create := `mutation($in: LocationInput!) { createLocation(input: $in) { id name shape } }`
	circle := map[string]any{"type": "circle", "format": "distance",
		"distance": map[string]any{"center": "geo:40.79,-74.15", "radius": "15"}}
	r := e.GraphQL(app, create, map[string]any{"in": map[string]any{"name": "NYC", "shape": circle}})
	if len(r.Errors) > 0 {
		t.Fatalf("create: %+v", r.Errors)
	}
	id := r.Data["createLocation"].(map[string]any)["id"].(string)
	for _, bad := range []map[string]any{
		{"type": "circle", "format": "distance", "distance": map[string]any{"center": "geo:200,0", "radius": "1"}},
		{"type": "square"},
		{"type": "polygon", "format": "geojson", "geojson": map[string]any{"type": "Polygon"}},
	} {
		r := e.GraphQL(app, create, map[string]any{"in": map[string]any{"name": "bad", "shape": bad}})
		if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" {
			t.Fatalf("bad shape %v: %+v", bad, r)
		}
	}
	got := must(t, e.Do(http.MethodGet, "/v1/locations/"+id, nil, app), http.StatusOK)
	if got["object"] != "location" || got["name"] != "NYC" || got["shape"].(map[string]any)["type"] != "circle" {
		t.Fatalf("get: %v", got)
	}
	l := must(t, e.Do(http.MethodGet, "/v1/locations?filters[name][conditions][$is]=NYC", nil, app), http.StatusOK)
	if l["total"] != float64(1) || len(l["data"].([]any)) != 1 {
		t.Fatalf("list: %v", l)
	}
	if l := must(t, e.Do(http.MethodGet, "/v1/locations", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Fatalf("other project's list: %v", l)
	}
	wantNotFound(t, e.Do(http.MethodGet, "/v1/locations/"+id, nil, other), "location", id)
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/locations?order=name", nil, app), http.StatusBadRequest, "invalid_query_params")
}

func TestCampaignTransactionsExport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Gifts",
		"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}}, app), http.StatusOK)
	cid := cmp["id"].(string)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Gifts/transactions/export", map[string]any{}, app), http.StatusOK)
	params := exp["parameters"].(map[string]any)
	in := params["filters"].(map[string]any)["campaign_id"].(map[string]any)["conditions"].(map[string]any)["$in"].([]any)
	if exp["exported_object"] != "voucher_transactions" || exp["object"] != "export" || len(in) != 1 || in[0] != cid {
		t.Fatalf("export: %v", exp)
	}
	if _, has := params["order"]; has {
		t.Errorf("parameters show an order the request did not send: %v", params)
	}
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/campaigns/camp_nope/transactions/export", map[string]any{}, app), "campaign", "camp_nope")
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+cid+"/transactions/export",
		map[string]any{"parameters": map[string]any{"order": "amount"}}, app), http.StatusBadRequest, "invalid_payload")
}
