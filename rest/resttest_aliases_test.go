package rest_test

import (
	"testing"

	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/resttest"
)

// Transitional: the test helpers that rest's tests share with the areas
// moved out of rest (rest/management, rest/loyaltyv2) live in resttest.
// These names keep the rest tests that still use them unchanged; they go
// as those tests move to their areas.

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

func v2(t testing.TB, e *resttest.Env, p access.ProjectCredentials) resttest.Headers {
	t.Helper()
	return resttest.V2(t, e, p)
}

func mustOK(t testing.TB, e *resttest.Env, method, path string, v any, h resttest.Headers) map[string]any {
	t.Helper()
	return resttest.MustOK(t, e, method, path, v, h)
}

func wantErrorKey(t *testing.T, r resttest.Response, status int, key string) map[string]any {
	t.Helper()
	return resttest.WantErrorKey(t, r, status, key)
}

type loyaltySetup = resttest.LoyaltySetup

func newLoyaltySetup(t testing.TB, e *resttest.Env) loyaltySetup {
	t.Helper()
	return resttest.NewLoyaltySetup(t, e)
}

func memberCardAt(t testing.TB, member map[string]any, i int) map[string]any {
	t.Helper()
	return resttest.MemberCardAt(t, member, i)
}

func v2ProductMaterial(t testing.TB, e *resttest.Env) map[string]any {
	t.Helper()
	return resttest.V2ProductMaterial(t, e)
}

func purchasable(t *testing.T, e *resttest.Env, s loyaltySetup, cost, stock int) string {
	t.Helper()
	return resttest.Purchasable(t, e, s, cost, stock)
}

func earningRuleBody(cardDef, status string) map[string]any {
	return resttest.EarningRuleBody(cardDef, status)
}

var timestampRE = resttest.TimestampRE

func createCampaign(t *testing.T, e *resttest.Env, body map[string]any) map[string]any {
	t.Helper()
	return resttest.CreateCampaign(t, e, body)
}

func defineEvent(t *testing.T, e *resttest.Env, h resttest.Headers, name string, props map[string]any) map[string]any {
	t.Helper()
	return resttest.DefineEvent(t, e, h, name, props)
}

func hooksPath(e *resttest.Env) string { return resttest.HooksPath(e) }

func createHook(t *testing.T, e *resttest.Env, mk resttest.Headers, target string, events ...string) map[string]any {
	t.Helper()
	return resttest.CreateHook(t, e, mk, target, events...)
}

func download(t *testing.T, e *resttest.Env, rawURL string) (int, string) {
	t.Helper()
	return resttest.Download(t, e, rawURL)
}

func twoServers(t *testing.T) (*resttest.Env, resttest.Headers, []string) {
	t.Helper()
	return resttest.TwoServers(t)
}

func burst(e *resttest.Env, servers []string, h resttest.Headers, n int, req func(i int) (string, any)) []resttest.Response {
	return resttest.Burst(e, servers, h, n, req)
}

func wantOutcomes(t *testing.T, what string, resps []resttest.Response, want map[string]int) {
	t.Helper()
	resttest.WantOutcomes(t, what, resps, want)
}

func outcome(r resttest.Response) string { return resttest.Outcome(r) }

// createProduct is resttest.CreateProduct.
func createProduct(t *testing.T, e *resttest.Env, h resttest.Headers, body map[string]any) map[string]any {
	t.Helper()
	return resttest.CreateProduct(t, e, h, body)
}

// uploadCSV is resttest.UploadCSV.
func uploadCSV(t *testing.T, e *resttest.Env, h resttest.Headers, path, csv string) resttest.Response {
	t.Helper()
	return resttest.UploadCSV(t, e, h, path, csv)
}

// wantNotFound is resttest.WantNotFound.
func wantNotFound(t *testing.T, r resttest.Response, resourceType, sent string) {
	t.Helper()
	resttest.WantNotFound(t, r, resourceType, sent)
}

// createCategory is resttest.CreateCategory.
func createCategory(t *testing.T, e *resttest.Env, h resttest.Headers, name string, hierarchy int) map[string]any {
	t.Helper()
	return resttest.CreateCategory(t, e, h, name, hierarchy)
}

// hasKey is resttest.HasKey.
func hasKey(obj map[string]any, key string) bool { return resttest.HasKey(obj, key) }

// promotionCampaign is resttest.PromotionCampaign.
func promotionCampaign(t *testing.T, e *resttest.Env, h resttest.Headers, name string, tiers ...map[string]any) (map[string]any, []map[string]any) {
	t.Helper()
	return resttest.PromotionCampaign(t, e, h, name, tiers...)
}

func amountTier(name string, off int) map[string]any { return resttest.AmountTier(name, off) }

// discountCampaign is resttest.DiscountCampaign.
func discountCampaign(t *testing.T, e *resttest.Env, name, pattern, charset string, extra map[string]any) map[string]any {
	t.Helper()
	return resttest.DiscountCampaign(t, e, name, pattern, charset, extra)
}

// addVoucher is resttest.AddVoucher.
func addVoucher(t *testing.T, e *resttest.Env, campaign string, body any) resttest.Response {
	t.Helper()
	return resttest.AddVoucher(t, e, campaign, body)
}
