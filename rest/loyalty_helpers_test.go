package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/resttest"
)

// v2 is a project's /v2 credentials: a bearer token plus the app keys.
func v2(t testing.TB, e *resttest.Env, p access.ProjectCredentials) resttest.Headers {
	t.Helper()
	app := resttest.App(p)
	return resttest.Merge(app, resttest.Bearer(e.Token(app, "loyalties")))
}

// mustOK sends v as JSON and fails unless the answer is 200.
func mustOK(t testing.TB, e *resttest.Env, method, path string, v any, h resttest.Headers) map[string]any {
	t.Helper()
	r := e.DoJSON(method, path, v, h)
	if r.Status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
	}
	return r.JSON(t)
}

// wantError checks an error answer's status and key.
func wantErrorKey(t *testing.T, r resttest.Response, status int, key string) map[string]any {
	t.Helper()
	return resttest.WantErrorKey(t, r, status, key)
}

// loyaltySetup is a program with a card definition, a member and the
// member's card.
type loyaltySetup struct {
	h                                    resttest.Headers
	program, cardDef, member, card, cust string
}

func (s loyaltySetup) cardPath() string {
	return "/v2/loyalties/programs/" + s.program + "/members/" + s.member + "/cards/" + s.card
}

func newLoyaltySetup(t testing.TB, e *resttest.Env) loyaltySetup {
	t.Helper()
	s := loyaltySetup{h: v2(t, e, e.Project)}
	cust := mustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "member-1"}, resttest.App(e.Project))
	s.cust = cust["id"].(string)
	def := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{
		"name": "Gold", "status": "ACTIVE", "code_config": map[string]any{"pattern": "GOLD-######", "charset": "0123456789"},
	}, s.h)
	s.cardDef = def["id"].(string)
	prg := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{
		"name": "Club", "status": "ACTIVE", "card_definitions": []any{map[string]any{"id": s.cardDef}},
	}, s.h)
	s.program = prg["id"].(string)
	m := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.program+"/members", map[string]any{"customer_id": s.cust}, s.h)
	s.member = m["id"].(string)
	cards := m["cards"].([]any)
	if len(cards) != 1 {
		t.Fatalf("member has %d cards, want 1: %v", len(cards), m)
	}
	s.card = memberCardAt(t, m, 0)["id"].(string)
	return s
}

// memberCardAt is the card of a v2 member's i-th card assignment
// ({member_role, created_at, card, object: member_card}).
func memberCardAt(t testing.TB, member map[string]any, i int) map[string]any {
	t.Helper()
	assignment := member["cards"].([]any)[i].(map[string]any)
	if assignment["object"] != "member_card" || assignment["member_role"] != "OWNER" || assignment["created_at"] == nil {
		t.Fatalf("member card assignment %v", assignment)
	}
	return assignment["card"].(map[string]any)
}

// newMaterial creates a product with one SKU in the project of the app
// headers (an incentive's material must name real ones) and returns
// their ids.
func newMaterial(t testing.TB, e *resttest.Env, app resttest.Headers) (product, sku string) {
	t.Helper()
	p := mustOK(t, e, http.MethodPost, "/v1/products", map[string]any{"name": "Mug"}, app)["id"].(string)
	s := mustOK(t, e, http.MethodPost, "/v1/products/"+p+"/skus", map[string]any{"sku": "Mug red"}, app)["id"].(string)
	return p, s
}

// productMaterial is an incentive's material naming a product.
func productMaterial(product string) map[string]any {
	return map[string]any{"product": map[string]any{"id": product}}
}

// v2ProductMaterial is a v2 reward's material naming a new product of the
// environment's project (a reward's product must exist).
func v2ProductMaterial(t testing.TB, e *resttest.Env) map[string]any {
	t.Helper()
	p, _ := newMaterial(t, e, resttest.App(e.Project))
	return map[string]any{"product": map[string]any{"id": p}}
}
