package rest_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/openapi"
	"github.com/promoengine/promoengine/rest/resttest"
)

var ginParam = regexp.MustCompile(`[:*]([A-Za-z0-9_]+)`)

// TestOpenAPIDocumentsEveryRoute compares the routes the router serves
// with the paths of GET /openapi.json, both ways. The rule: every served
// route is documented except the ones openapi.Undocumented names (the
// GraphQL endpoints, described by their own schema, and the GraphiQL
// playground, a browser UI); probes, metrics, images, downloads and the
// document itself are documented. A documented operation must be served.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	e := resttest.New(t)
	doc := e.OpenAPI()
	router, err := rest.NewRouter(rest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	var missing []string
	for _, r := range router.Routes() {
		if _, skip := openapi.Undocumented(r.Method, r.Path); skip {
			continue
		}
		path := ginParam.ReplaceAllString(r.Path, "{$1}")
		served[r.Method+" "+path] = true
		if item := doc.Paths.Value(path); item == nil || item.GetOperation(r.Method) == nil {
			missing = append(missing, r.Method+" "+path)
		}
	}
	var extra []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !served[method+" "+path] {
				extra = append(extra, method+" "+path)
			}
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("%d served routes are not in the OpenAPI document (add them in rest/openapi):\n%s",
			len(missing), strings.Join(missing, "\n"))
	}
	if len(extra) > 0 {
		t.Errorf("%d documented operations are not served:\n%s", len(extra), strings.Join(extra, "\n"))
	}
}

// TestOpenAPIServed: the document is public JSON, OpenAPI 3.1, with the
// security schemes of every kind of credential.
func TestOpenAPIServed(t *testing.T) {
	e := resttest.New(t)
	resp := e.Do(http.MethodGet, "/openapi.json", nil, nil)
	if resp.Status != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /openapi.json: %d %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	var doc struct {
		OpenAPI    string `json:"openapi"`
		Components struct {
			SecuritySchemes map[string]struct {
				Type string `json:"type"`
				Name string `json:"name"`
			} `json:"securitySchemes"`
		} `json:"components"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	headers := map[string]bool{}
	for _, s := range doc.Components.SecuritySchemes {
		headers[s.Type+" "+s.Name] = true
	}
	for _, want := range []string{"apiKey X-App-Id", "apiKey X-App-Token", "apiKey X-Client-Application-Id",
		"apiKey X-Client-Token", "apiKey X-Management-Id", "apiKey X-Management-Token", "oauth2 "} {
		if !headers[want] {
			t.Errorf("no security scheme %q in %v", want, headers)
		}
	}
	// Bearer alternatives name the scopes that allow the route.
	sec := e.OpenAPI().Paths.Value("/v1/publications").Post.Security
	var scopes []string
	for _, req := range *sec {
		scopes = append(scopes, req["oauth2"]...)
	}
	if strings.Join(scopes, " ") != "api publications" {
		t.Errorf("bearer scopes of POST /v1/publications = %v, want [api publications]", scopes)
	}
}

// TestOpenAPIValidatorRejectsWrongBodies makes sure the check every
// harness request goes through is not a rubber stamp: a real answer
// passes, and a missing required field, a wrong type, an undocumented
// field, an undocumented success status and a non-error body under an
// error status are each refused.
func TestOpenAPIValidatorRejectsWrongBodies(t *testing.T) {
	e := resttest.New(t)
	doc := e.OpenAPI()
	h := resttest.App(e.Project)
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "contract",
		"campaign_type": "DISCOUNT_COUPONS", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, h)
	if resp.Status != http.StatusOK {
		t.Fatalf("creating a campaign: %d %s", resp.Status, resp.Body)
	}
	route := "/v1/campaigns/:campaignId"
	if err := resttest.CheckResponse(doc, http.MethodGet, route, http.StatusOK, resp.Header, resp.Body); err != nil {
		t.Fatalf("a real campaign is refused: %v", err)
	}
	campaign := resp.JSON(t)
	changed := func(change func(map[string]any)) []byte {
		c := map[string]any{}
		for k, v := range campaign {
			c[k] = v
		}
		change(c)
		b, _ := json.Marshal(c)
		return b
	}
	for name, tc := range map[string]struct {
		status int
		body   []byte
		want   string
	}{
		"missing required": {200, changed(func(c map[string]any) { delete(c, "name") }), `"name"`},
		"wrong type":       {200, changed(func(c map[string]any) { c["vouchers_count"] = "seven" }), "vouchers_count"},
		"undocumented":     {200, changed(func(c map[string]any) { c["surprise"] = true }), "surprise"},
		"wrong enum":       {200, changed(func(c map[string]any) { c["object"] = "voucher" }), "object"},
		"status":           {201, resp.Body, "201"},
		"error shape":      {404, resp.Body, "code"},
	} {
		t.Run(name, func(t *testing.T) {
			err := resttest.CheckResponse(doc, http.MethodGet, route, tc.status, resp.Header, tc.body)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckResponse = %v, want an error mentioning %s", err, tc.want)
			}
		})
	}
	if err := resttest.CheckResponse(doc, http.MethodGet, "/v1/nowhere", http.StatusOK, resp.Header, resp.Body); err == nil {
		t.Error("an undocumented route passes")
	}
}
