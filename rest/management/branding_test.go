package management_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestBrandingLifecycle(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	base := resttest.ProjectPath(pid, "/branding")
	if l := resttest.Must(t, e.Do(http.MethodGet, base, nil, mk), http.StatusOK); l["total"] != float64(0) || len(l["data"].([]any)) != 0 {
		t.Errorf("list before create: %v", l)
	}
	body := resttest.BrandingPayload()
	body["brand"].(map[string]any)["privacy_policy_url"] = "https://voucherify.io/privacy"
	body["contact"].(map[string]any)["phone"] = "+48 123"
	created := resttest.Must(t, e.DoJSON(http.MethodPost, base, body, mk), http.StatusOK)
	id := created["id"].(string)
	l := resttest.Must(t, e.Do(http.MethodGet, base, nil, mk), http.StatusOK)
	if l["total"] != float64(1) || l["data"].([]any)[0].(map[string]any)["id"] != id {
		t.Errorf("list: %v", l)
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusOK); resttest.MustJSON(got) != resttest.MustJSON(created) {
		t.Errorf("get = %v, created %v", got, created)
	}

	// Only what is sent changes; null clears a nullable field, and the
	// website_url stays a string.
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+id, map[string]any{
		"brand":    map[string]any{"name": "Voucherify SA", "privacy_policy_url": nil, "website_url": nil},
		"contact":  map[string]any{"phone": nil},
		"cockpits": map[string]any{"loyalty_enabled": true},
	}, mk), http.StatusOK)
	brand, address := upd["brand"].(map[string]any), upd["address"].(map[string]any)
	contact, cockpits := upd["contact"].(map[string]any), upd["cockpits"].(map[string]any)
	if brand["name"] != "Voucherify SA" || brand["privacy_policy_url"] != nil || brand["website_url"] != "" ||
		brand["permission_reminder"] != created["brand"].(map[string]any)["permission_reminder"] {
		t.Errorf("updated brand: %v", brand)
	}
	if address["city"] != "Katowice" || contact["email"] != "support@voucherify.io" || contact["phone"] != nil ||
		cockpits["loyalty_enabled"] != true || cockpits["theme"] != "default" {
		t.Errorf("updated branding: %s", resttest.MustJSON(upd))
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusOK); resttest.MustJSON(got) != resttest.MustJSON(upd) {
		t.Errorf("read after update = %v", got)
	}
	// An update must leave a valid configuration; a refused one changes nothing.
	for name, bad := range map[string]map[string]any{
		"blank name":  {"brand": map[string]any{"name": " "}},
		"bad email":   {"contact": map[string]any{"email": "nope"}},
		"bad website": {"brand": map[string]any{"website_url": "ftp://x"}},
		"redirect":    {"cockpits": map[string]any{"use_custom_double_opt_in_redirect_url": true}},
	} {
		r := e.DoJSON(http.MethodPut, base+"/"+id, bad, mk)
		if r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusOK); resttest.MustJSON(got) != resttest.MustJSON(upd) {
		t.Errorf("refused updates changed it: %v", got)
	}

	// Another project's path does not reach this brand.
	other := e.NewProject("Other").ProjectID
	resttest.WantErrorKey(t, e.Do(http.MethodGet, resttest.ProjectPath(other, "/branding/", id), nil, mk), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, resttest.ProjectPath(other, "/branding/", id), map[string]any{"brand": map[string]any{"name": "X"}}, mk),
		http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, resttest.ProjectPath(other, "/branding/", id), nil, mk), http.StatusNotFound, "not_found")
	if l := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(other, "/branding"), nil, mk), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("other project's list: %v", l)
	}

	// Delete: 204, gone, and a new one may be created.
	if r := e.Do(http.MethodDelete, base+"/"+id, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	body404 := resttest.WantErrorKey(t, e.Do(http.MethodGet, base+"/"+id, nil, mk), http.StatusNotFound, "not_found")
	if body404["resource_type"] != "branding_details" || body404["resource_id"] != id {
		t.Errorf("404: %v", body404)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, base+"/"+id, nil, mk), http.StatusNotFound, "not_found")
	resttest.Must(t, e.DoJSON(http.MethodPost, base, resttest.BrandingPayload(), mk), http.StatusOK)

	// Without the branding feature every branding operation is 402.
	setFeatures(t, e, pid, nil, []string{feature.Branding})
	for _, r := range []resttest.Response{
		e.Do(http.MethodGet, base, nil, mk),
		e.Do(http.MethodGet, base+"/brd_x", nil, mk),
		e.DoJSON(http.MethodPut, base+"/brd_x", map[string]any{}, mk),
		e.Do(http.MethodDelete, base+"/brd_x", nil, mk),
	} {
		resttest.WantErrorKey(t, r, http.StatusPaymentRequired, "missing_required_feature")
	}
}

const brandingFields = `id brand { name privacyPolicyURL termsOfUseURL permissionReminder websiteURL }
	address { street city postal state country } contact { email phone }
	cockpits { loyaltyEnabled theme useCustomDoubleOptInRedirectURL customDoubleOptInRedirectURL }`

func TestBrandingThroughTheManagementGraph(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	vars := map[string]any{"p": pid}
	input := `{brand: {name: "Graph brand"}, address: {street: "S 1", city: "Katowice", postal: "40-001", country: "Poland"},
		contact: {email: "brand@example.com"}}`
	b := resttest.GQLObject(t, e, mk, "createManagementBranding", `mutation($p: ID!) { createManagementBranding(projectID: $p, input: `+input+`) { `+brandingFields+` } }`, vars)
	id := b["id"].(string)
	if brand := b["brand"].(map[string]any); brand["websiteURL"] != "" || brand["privacyPolicyURL"] != nil ||
		brand["permissionReminder"] == "" || b["cockpits"].(map[string]any)["theme"] != "default" {
		t.Errorf("created: %v", b)
	}
	// The same brand through REST.
	rest := resttest.Must(t, e.Do(http.MethodGet, resttest.ProjectPath(pid, "/branding/", id), nil, mk), http.StatusOK)
	if rest["brand"].(map[string]any)["name"] != "Graph brand" || rest["brand"].(map[string]any)["website_url"] != "" {
		t.Errorf("REST view: %v", rest)
	}
	// A second one: 409 branding_exist, as over REST.
	resttest.GQLError(t, e, mk, 409, "branding_exist", `mutation($p: ID!) { createManagementBranding(projectID: $p, input: `+input+`) { id } }`, vars)
	vars["id"] = id
	upd := resttest.GQLObject(t, e, mk, "updateManagementBranding", `mutation($p: ID!, $id: ID!) {
		updateManagementBranding(projectID: $p, id: $id, input: {brand: {websiteURL: "shop.example.com"}, address: {state: "Silesia"}}) { `+brandingFields+` } }`, vars)
	if upd["brand"].(map[string]any)["websiteURL"] != "shop.example.com" || upd["address"].(map[string]any)["state"] != "Silesia" ||
		upd["brand"].(map[string]any)["name"] != "Graph brand" {
		t.Errorf("updated: %v", upd)
	}
	cleared := resttest.GQLObject(t, e, mk, "updateManagementBranding", `mutation($p: ID!, $id: ID!) {
		updateManagementBranding(projectID: $p, id: $id, input: {address: {state: null}}) { address { state city } } }`, vars)
	if a := cleared["address"].(map[string]any); a["state"] != nil || a["city"] != "Katowice" {
		t.Errorf("state cleared: %v", cleared)
	}
	// The same validation as REST, with the same key.
	resttest.GQLError(t, e, mk, 400, "invalid_payload", `mutation($p: ID!, $id: ID!) {
		updateManagementBranding(projectID: $p, id: $id, input: {contact: {email: "nope"}}) { id } }`, vars)
	list := resttest.GQLData(t, e, mk, "managementBrandings", `query($p: ID!) { managementBrandings(projectID: $p) { id } }`, map[string]any{"p": pid})
	if l := list.([]any); len(l) != 1 || l[0].(map[string]any)["id"] != id {
		t.Errorf("managementBrandings = %v", list)
	}
	// Tenancy: another project's id in the path finds nothing.
	other := e.NewProject("Other").ProjectID
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $id: ID!) { managementBranding(projectID: $p, id: $id) { id } }`,
		map[string]any{"p": other, "id": id})
	if got := resttest.GQLData(t, e, mk, "deleteManagementBranding", `mutation($p: ID!, $id: ID!) { deleteManagementBranding(projectID: $p, id: $id) }`, vars); got != id {
		t.Errorf("deleteManagementBranding = %v", got)
	}
	resttest.GQLError(t, e, mk, 404, "not_found", `query($p: ID!, $id: ID!) { managementBranding(projectID: $p, id: $id) { id } }`, vars)
	// Application keys do not reach the management fields.
	if r := e.GraphQL(resttest.App(e.Project), `query($p: ID!) { managementBrandings(projectID: $p) { id } }`, map[string]any{"p": pid}); len(r.Errors) != 1 ||
		r.Errors[0].Extensions["code"] != float64(401) {
		t.Errorf("managementBrandings on /graphql: %+v", r)
	}
}
