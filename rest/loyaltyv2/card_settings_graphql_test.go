package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCardDefinitionSettingsOverGraphQL: createCardDefinition and
// updateCardDefinition take the settings REST takes (the REST objects as
// scalars), checked by the same use case: a bad one is invalid_payload and
// writes nothing; the stored ones show in CardDefinition.settings and in
// the REST answer.
func TestCardDefinitionSettingsOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	create := `mutation($exp: CardPointsExpiration, $lim: CardLimits, $ref: CardRefunds) {
		createCardDefinition(input: {name: "Silver", pointsExpiration: $exp, spendingLimits: $lim, refunds: $ref}) { id settings } }`
	bad := e.GraphQL(app, create, map[string]any{"exp": map[string]any{"type": "ROLLING_EXPIRATION"}})
	if len(bad.Errors) == 0 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Fatalf("invalid expiration: %+v", bad)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions?limit=100", nil, s.H)["data"].([]any); len(got) != 1 {
		t.Fatalf("%d card definitions after a refused create, want 1", len(got))
	}
	ok := e.GraphQL(app, create, map[string]any{
		"exp": map[string]any{"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 2, "unit": "MONTH"}}},
		"lim": map[string]any{"global": map[string]any{"type": "LIMITED", "limits": []any{map[string]any{"type": "SPENDING_BASED", "max": 500}}},
			"transactions": map[string]any{"type": "NO_LIMIT"}},
		"ref": map[string]any{"spent_points": map[string]any{"type": "REFUNDABLE", "methods": []any{map[string]any{"type": "RETURN_POINTS", "mode": "REFUND_ALL"}}},
			"earned_points": map[string]any{"type": "NONE"}},
	})
	if len(ok.Errors) > 0 {
		t.Fatalf("create: %+v", ok.Errors)
	}
	def := ok.Data["createCardDefinition"].(map[string]any)
	id := def["id"].(string)
	if st := def["settings"].(map[string]any); st["points_expiration"].(map[string]any)["type"] != "ROLLING_EXPIRATION" ||
		st["spending_limits"].(map[string]any)["global"].(map[string]any)["type"] != "LIMITED" {
		t.Errorf("settings %v", resttest.MustJSON(st))
	}
	// A negative balance needs points that never expire (the same rule as REST).
	neg := e.GraphQL(app, `mutation($id: ID!) { updateCardDefinition(id: $id, input: {balanceSettings: {allow_negative: true}}) { settings } }`,
		map[string]any{"id": id})
	if len(neg.Errors) == 0 || neg.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Fatalf("allow_negative with expiring points: %+v", neg)
	}
	upd := e.GraphQL(app, `mutation($id: ID!) { updateCardDefinition(id: $id, input: {balanceSettings: {allow_negative: true},
		pointsExpiration: {type: "NO_EXPIRATION"}}) { settings } }`, map[string]any{"id": id})
	if len(upd.Errors) > 0 {
		t.Fatalf("update: %+v", upd.Errors)
	}
	got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+id, nil, s.H)
	if resttest.MustJSON(got["balance_settings"]) != `{"allow_negative":true}` || got["points_expiration"].(map[string]any)["type"] != "NO_EXPIRATION" ||
		got["refunds"].(map[string]any)["spent_points"].(map[string]any)["type"] != "REFUNDABLE" {
		t.Errorf("REST after GraphQL: %s", resttest.MustJSON(got))
	}
	wrong := e.GraphQL(app, `mutation($id: ID!) { updateCardDefinition(id: $id, input: {earningLimits: {global: {type: "SOMETIMES"}}}) { id } }`,
		map[string]any{"id": id})
	if len(wrong.Errors) == 0 || wrong.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("invalid earning limits: %+v", wrong)
	}
}
