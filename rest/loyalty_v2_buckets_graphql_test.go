package rest_test

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
	s := newLoyaltySetup(t, e)
	visit := defineEvent(t, e, app, "visit", nil)
	mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger": map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10, "card_definition_id": s.cardDef,
			"points_expiration": map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "DAY"}}}}}}}}}, s.h)
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	vars := map[string]any{"p": s.program, "m": s.member, "c": s.card}

	l := e.GraphQL(app, `query($p: ID!, $m: ID!, $c: ID!) { cardExpiringPoints(programID: $p, memberID: $m, cardID: $c,
		page: {limit: 10, asc: true}) { data { bucket { id points status } customerID } hasMore } }`, vars)
	page, _ := l.Data["cardExpiringPoints"].(map[string]any)
	if len(l.Errors) > 0 || page == nil || len(page["data"].([]any)) != 1 {
		t.Fatalf("cardExpiringPoints: %+v %s", l.Errors, mustJSON(l.Data))
	}
	vars["b"] = page["data"].([]any)[0].(map[string]any)["bucket"].(map[string]any)["id"]
	expire := `mutation($p: ID!, $m: ID!, $c: ID!, $b: ID!) { expireCardPointsBucket(programID: $p, memberID: $m, cardID: $c,
		bucketID: $b) { bucket { bucket { status } } transaction { amount } } }`
	x := e.GraphQL(app, expire, vars)
	if len(x.Errors) > 0 || mustJSON(x.Data["expireCardPointsBucket"]) != `{"bucket":{"bucket":{"status":"EXPIRED"}},"transaction":{"amount":-10}}` {
		t.Errorf("expireCardPointsBucket: %+v %s", x.Errors, mustJSON(x.Data))
	}
	if again := e.GraphQL(app, expire, vars); len(again.Errors) == 0 {
		t.Errorf("a second expiry succeeded: %s", mustJSON(again.Data))
	}
	r := e.GraphQL(app, `query($p: ID!) { programEarningRulesReport(programID: $p) { count points }
		programPointsEarningsReport(programID: $p) { cardDefinitionID points } programSpendingReport(programID: $p) { success } }`, vars)
	if len(r.Errors) > 0 || mustJSON(r.Data) != `{"programEarningRulesReport":[{"count":1,"points":10}],`+
		`"programPointsEarningsReport":[{"cardDefinitionID":"`+s.cardDef+`","points":10}],"programSpendingReport":[{"success":0}]}` {
		t.Errorf("program reports: %+v %s", r.Errors, mustJSON(r.Data))
	}
}
