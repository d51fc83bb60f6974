package management_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCreateBranding(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	path := "/management/v1/projects/" + e.Project.ProjectID + "/branding"
	resp := e.DoJSON(http.MethodPost, path, resttest.BrandingPayload(), mk)
	if resp.Status != http.StatusOK {
		t.Fatalf("create brand: %d %s", resp.Status, resp.Body)
	}
	got := resp.JSON(t)
	if !regexp.MustCompile(`^brd_[0-9a-f]{18}$`).MatchString(got["id"].(string)) {
		t.Errorf("id = %v", got["id"])
	}
	want := `"brand":{"name":"Voucherify PSA","privacy_policy_url":null,"terms_of_use_url":null,` +
		`"permission_reminder":"You are receiving this email because you opted in at our website.","website_url":"voucherify.io"},` +
		`"address":{"street":"Porcelanowa 23","city":"Katowice","postal":"43-246","state":null,"country":"Poland"},` +
		`"contact":{"email":"support@voucherify.io","phone":null},` +
		`"cockpits":{"campaigns_overview_enabled":false,"loyalty_enabled":false,"gift_cards_enabled":false,"coupons_enabled":false,` +
		`"referrals_enabled":false,"theme":"default","use_custom_double_opt_in_redirect_url":false,"custom_double_opt_in_redirect_url":null}}`
	if !strings.HasSuffix(strings.TrimSpace(string(resp.Body)), want) {
		t.Errorf("body:\n%s\nwant suffix:\n%s", resp.Body, want)
	}

	again := e.DoJSON(http.MethodPost, path, resttest.BrandingPayload(), mk)
	if g := again.JSON(t); again.Status != 409 || g["key"] != "branding_exist" || g["message"] != "Branding exist" ||
		g["details"] != "Cannot exist more than one branding for given project" {
		t.Errorf("second brand: %d %s", again.Status, again.Body)
	}
}

// TestBrandingWebsiteURLWhenNotSent: website_url is optional, but the
// interface's brand has it as a (non-null) string: absent or null it is
// answered as "" on create and get; given, it is echoed.
func TestBrandingWebsiteURLWhenNotSent(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	for name, set := range map[string]func(brand map[string]any){
		"absent": func(b map[string]any) { delete(b, "website_url") },
		"null":   func(b map[string]any) { b["website_url"] = nil },
	} {
		p := e.NewProject("branding " + name)
		body := resttest.BrandingPayload()
		set(body["brand"].(map[string]any))
		path := "/management/v1/projects/" + p.ProjectID + "/branding"
		got := resttest.Must(t, e.DoJSON(http.MethodPost, path, body, mk), http.StatusOK)
		if v, ok := got["brand"].(map[string]any)["website_url"]; !ok || v != "" {
			t.Errorf("%s: website_url = %#v (present %v), want \"\"", name, v, ok)
		}
		read := resttest.Must(t, e.Do(http.MethodGet, path+"/"+got["id"].(string), nil, mk), http.StatusOK)
		if v := read["brand"].(map[string]any)["website_url"]; v != "" {
			t.Errorf("%s: read back website_url = %#v", name, v)
		}
	}
}

func TestCreateBrandingValidation(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	path := "/management/v1/projects/" + e.Project.ProjectID + "/branding"
	edit := func(f func(p map[string]any)) map[string]any { p := resttest.BrandingPayload(); f(p); return p }
	sub := func(p map[string]any, k string) map[string]any { return p[k].(map[string]any) }
	cases := map[string]struct {
		body  map[string]any
		field string
	}{
		"no brand":         {edit(func(p map[string]any) { delete(p, "brand") }), "brand"},
		"no address":       {edit(func(p map[string]any) { delete(p, "address") }), "address"},
		"no contact":       {edit(func(p map[string]any) { p["contact"] = nil }), "contact"},
		"no name":          {edit(func(p map[string]any) { delete(sub(p, "brand"), "name") }), "brand.name"},
		"no city":          {edit(func(p map[string]any) { sub(p, "address")["city"] = "" }), "address.city"},
		"bad email":        {edit(func(p map[string]any) { sub(p, "contact")["email"] = "not an email" }), "contact.email"},
		"bad website":      {edit(func(p map[string]any) { sub(p, "brand")["website_url"] = "http://exa mple" }), "brand.website_url"},
		"bad privacy url":  {edit(func(p map[string]any) { sub(p, "brand")["privacy_policy_url"] = "ftp://x.org/p" }), "brand.privacy_policy_url"},
		"wrong type":       {edit(func(p map[string]any) { sub(p, "brand")["name"] = 5 }), "brand.name"},
		"bad redirect url": {edit(func(p map[string]any) { p["cockpits"] = map[string]any{"custom_double_opt_in_redirect_url": "nope"} }), "cockpits.custom_double_opt_in_redirect_url"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := e.DoJSON(http.MethodPost, path, tc.body, mk)
			got := resp.JSON(t)
			if resp.Status != 400 || got["key"] != "invalid_payload" || !strings.Contains(got["details"].(string), tc.field) {
				t.Errorf("%d %s", resp.Status, resp.Body)
			}
		})
	}
	if resp := e.Do(http.MethodPost, path, []byte(`{"brand":`), mk); resp.Status != 400 || resp.JSON(t)["key"] != "invalid_json" {
		t.Errorf("malformed JSON: %d %s", resp.Status, resp.Body)
	}
	if n := e.DB.Client.Branding.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d brands stored by invalid requests", n)
	}
	// Cockpits given are echoed complete.
	p := resttest.BrandingPayload()
	p["cockpits"] = map[string]any{"loyalty_enabled": true, "theme": "dark"}
	resp := e.DoJSON(http.MethodPost, path, p, mk)
	ck, _ := resp.JSON(t)["cockpits"].(map[string]any)
	if resp.Status != 200 || ck["loyalty_enabled"] != true || ck["theme"] != "dark" || ck["coupons_enabled"] != false || len(ck) != 8 {
		t.Errorf("cockpits: %d %s", resp.Status, resp.Body)
	}
}

func TestOneBrandPerProjectUnderConcurrentRequests(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	path := "/management/v1/projects/" + e.Project.ProjectID + "/branding"
	const parallel = 8
	statuses := make([]int, parallel)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range parallel {
		wg.Go(func() {
			<-start
			r := e.DoJSON(http.MethodPost, path, resttest.BrandingPayload(), mk)
			statuses[i] = r.Status
			if r.Status == 409 && r.JSON(t)["key"] != "branding_exist" {
				t.Errorf("conflict: %s", r.Body)
			}
		})
	}
	close(start)
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == 200 {
			ok++
		} else if s != 409 {
			t.Errorf("unexpected status %d", s)
		}
	}
	if n := e.DB.Client.Branding.Query().CountX(resttest.SystemCtx()); ok != 1 || n != 1 {
		t.Errorf("%d created, %d stored (statuses %v); want exactly 1", ok, n, statuses)
	}
}
