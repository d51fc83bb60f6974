package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2CardBucketsAndProgramReportsThroughGraphQL: the expiring-points
// list, the manual expiry and the program reports answer GraphQL through
// the same use cases as REST; a second expiry is refused.
func TestV2CardBucketsAndProgramReportsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger": map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10, "card_definition_id": s.CardDef,
			"points_expiration": map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "DAY"}}}}}}}}}, s.H)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	vars := map[string]any{"p": s.Program, "m": s.Member, "c": s.Card}

	l := e.GraphQL(app, `query($p: ID!, $m: ID!, $c: ID!) { cardExpiringPoints(programID: $p, memberID: $m, cardID: $c,
		page: {limit: 10, asc: true}) { data { bucket { id points status } customerID } hasMore } }`, vars)
	page, _ := l.Data["cardExpiringPoints"].(map[string]any)
	if len(l.Errors) > 0 || page == nil || len(page["data"].([]any)) != 1 {
		t.Fatalf("cardExpiringPoints: %+v %s", l.Errors, resttest.MustJSON(l.Data))
	}
	vars["b"] = page["data"].([]any)[0].(map[string]any)["bucket"].(map[string]any)["id"]
	expire := `mutation($p: ID!, $m: ID!, $c: ID!, $b: ID!) { expireCardPointsBucket(programID: $p, memberID: $m, cardID: $c,
		bucketID: $b) { bucket { bucket { status } } transaction { amount } } }`
	x := e.GraphQL(app, expire, vars)
	if len(x.Errors) > 0 || resttest.MustJSON(x.Data["expireCardPointsBucket"]) != `{"bucket":{"bucket":{"status":"EXPIRED"}},"transaction":{"amount":-10}}` {
		t.Errorf("expireCardPointsBucket: %+v %s", x.Errors, resttest.MustJSON(x.Data))
	}
	if again := e.GraphQL(app, expire, vars); len(again.Errors) == 0 {
		t.Errorf("a second expiry succeeded: %s", resttest.MustJSON(again.Data))
	}
	r := e.GraphQL(app, `query($p: ID!) { programEarningRulesReport(programID: $p) { count points }
		programPointsEarningsReport(programID: $p) { cardDefinitionID points } programSpendingReport(programID: $p) { success } }`, vars)
	if len(r.Errors) > 0 || resttest.MustJSON(r.Data) != `{"programEarningRulesReport":[{"count":1,"points":10}],`+
		`"programPointsEarningsReport":[{"cardDefinitionID":"`+s.CardDef+`","points":10}],"programSpendingReport":[{"success":0}]}` {
		t.Errorf("program reports: %+v %s", r.Errors, resttest.MustJSON(r.Data))
	}
}
