package resttest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
)

// Helpers of the management API's tests (rest/management and the rest
// tests that set projects up through it).

// ProjectPath is /management/v1/projects/{projectID} followed by parts.
func ProjectPath(projectID string, parts ...string) string {
	return "/management/v1/projects/" + projectID + strings.Join(parts, "")
}

// ManagementGraphQL posts a query to /management/graphql.
func ManagementGraphQL(t testing.TB, e *Env, h Headers, query string, vars map[string]any) GraphQLResponse {
	t.Helper()
	resp := e.DoJSON(http.MethodPost, "/management/graphql", map[string]any{"query": query, "variables": vars}, h)
	var out GraphQLResponse
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatalf("not a GraphQL response (%d): %s", resp.Status, resp.Body)
	}
	out.Status = resp.Status
	return out
}

// GQLData posts a management GraphQL operation and returns its field's
// value, failing on any error.
func GQLData(t testing.TB, e *Env, h Headers, field, query string, vars map[string]any) any {
	t.Helper()
	r := ManagementGraphQL(t, e, h, query, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("%s: %+v", field, r.Errors)
	}
	return r.Data[field]
}

// GQLObject is GQLData for an object-valued field.
func GQLObject(t testing.TB, e *Env, h Headers, field, query string, vars map[string]any) map[string]any {
	t.Helper()
	v, _ := GQLData(t, e, h, field, query, vars).(map[string]any)
	return v
}

// GQLError posts a management GraphQL operation that must fail with one
// error of the given status code and key.
func GQLError(t testing.TB, e *Env, h Headers, code int, key, query string, vars map[string]any) {
	t.Helper()
	r := ManagementGraphQL(t, e, h, query, vars)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != float64(code) || r.Errors[0].Extensions["key"] != key {
		t.Fatalf("want error %d %s, got %+v", code, key, r)
	}
}

// NewAppKey creates an application key of the env's project through the
// management API and returns its headers and the created key.
func NewAppKey(t testing.TB, e *Env, mk Headers, body map[string]any) (Headers, map[string]any) {
	t.Helper()
	resp := e.DoJSON(http.MethodPost, "/management/v1/projects/"+e.Project.ProjectID+"/api-keys", body, mk)
	if resp.Status != http.StatusOK {
		t.Fatalf("creating key: %d %s", resp.Status, resp.Body)
	}
	got := resp.JSON(t)
	return Headers{"X-App-Id": got["app_id"].(string), "X-App-Token": got["app_token"].(string)}, got
}

// AppKeyPath is the management path of the application key h (of the env's
// project), followed by /action unless action is empty.
func AppKeyPath(e *Env, h Headers, action string) string {
	p := "/management/v1/projects/" + e.Project.ProjectID + "/api-keys/" + h["X-App-Id"]
	if action != "" {
		p += "/" + action
	}
	return p
}

// AddUser makes a user with a role in project (the operator's
// `promoengine user add`) and returns its id.
func AddUser(t testing.TB, e *Env, project, email, role string) string {
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

// BrandingPayload is a brand configuration as the real service's example
// creates it.
func BrandingPayload() map[string]any {
	return map[string]any{
		"brand":   map[string]any{"name": "Voucherify PSA", "privacy_policy_url": nil, "website_url": "voucherify.io"},
		"address": map[string]any{"street": "Porcelanowa 23", "city": "Katowice", "postal": "43-246", "country": "Poland"},
		"contact": map[string]any{"email": "support@voucherify.io"},
	}
}
