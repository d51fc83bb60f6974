package rest_test

import (
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// projectPath is /management/v1/projects/{projectID} followed by parts.
func projectPath(projectID string, parts ...string) string {
	return "/management/v1/projects/" + projectID + strings.Join(parts, "")
}

// gqlData posts a management GraphQL operation and returns its field's
// value, failing on any error.
func gqlData(t *testing.T, e *resttest.Env, h resttest.Headers, field, query string, vars map[string]any) any {
	t.Helper()
	r := managementGraphQL(t, e, h, query, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("%s: %+v", field, r.Errors)
	}
	return r.Data[field]
}

// gqlObject is gqlData for an object-valued field.
func gqlObject(t *testing.T, e *resttest.Env, h resttest.Headers, field, query string, vars map[string]any) map[string]any {
	t.Helper()
	v, _ := gqlData(t, e, h, field, query, vars).(map[string]any)
	return v
}

// gqlError posts a management GraphQL operation that must fail with one
// error of the given status code and key.
func gqlError(t *testing.T, e *resttest.Env, h resttest.Headers, code int, key, query string, vars map[string]any) {
	t.Helper()
	r := managementGraphQL(t, e, h, query, vars)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != float64(code) || r.Errors[0].Extensions["key"] != key {
		t.Fatalf("want error %d %s, got %+v", code, key, r)
	}
}
