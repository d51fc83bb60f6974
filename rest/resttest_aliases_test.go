package rest_test

import (
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// Transitional: the management API's test helpers moved to resttest with
// its tests (rest/management). These names keep the rest tests that still
// use them unchanged; they go as those tests move to their areas.

func projectPath(projectID string, parts ...string) string {
	return resttest.ProjectPath(projectID, parts...)
}

func managementGraphQL(t *testing.T, e *resttest.Env, h resttest.Headers, query string, vars map[string]any) resttest.GraphQLResponse {
	t.Helper()
	return resttest.ManagementGraphQL(t, e, h, query, vars)
}

func gqlObject(t *testing.T, e *resttest.Env, h resttest.Headers, field, query string, vars map[string]any) map[string]any {
	t.Helper()
	return resttest.GQLObject(t, e, h, field, query, vars)
}

func gqlError(t *testing.T, e *resttest.Env, h resttest.Headers, code int, key, query string, vars map[string]any) {
	t.Helper()
	resttest.GQLError(t, e, h, code, key, query, vars)
}

func newKey(t *testing.T, e *resttest.Env, mk resttest.Headers, body map[string]any) (resttest.Headers, map[string]any) {
	t.Helper()
	return resttest.NewAppKey(t, e, mk, body)
}

func keyPath(e *resttest.Env, h resttest.Headers, action string) string {
	return resttest.AppKeyPath(e, h, action)
}

func brandingPayload() map[string]any { return resttest.BrandingPayload() }
