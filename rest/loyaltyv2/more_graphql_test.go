package loyaltyv2_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2MoreThroughGraphQL: the earning preview, member batches, benefit
// transactions and the card report answer GraphQL through the same use
// cases as REST.
func TestV2MoreThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 9}, s.H)
	x := e.GraphQL(app, `query($m: ID!) { examineEarningRules(input: {trigger: {type: "SPECIFIC", specific: {event: "customer.order.paid"}},
		customerIdentification: {type: "member_id", memberID: $m}, customerOrderPaid: {order: {amount: "1000"}}}) {
		event memberships { cards { points rules { points } } } } }`, map[string]any{"m": s.Member})
	if len(x.Errors) > 0 || resttest.MustJSON(x.Data["examineEarningRules"]) != `{"event":"customer.order.paid","memberships":[{"cards":[{"points":5,"rules":[{"points":5}]}]}]}` {
		t.Errorf("examineEarningRules: %+v %s", x.Errors, resttest.MustJSON(x.Data))
	}
	today := time.Now().UTC().Format(time.DateOnly)
	r := e.GraphQL(app, `query($p: ID!, $m: ID!, $c: ID!, $d: String!) { cardPointsReport(programID: $p, memberID: $m, cardID: $c,
		range: {startDate: $d, endDate: $d, resolution: "day"}) { date added total } }`,
		map[string]any{"p": s.Program, "m": s.Member, "c": s.Card, "d": today})
	if len(r.Errors) > 0 || resttest.MustJSON(r.Data["cardPointsReport"]) != `[{"added":9,"date":"`+today+`","total":9}]` {
		t.Errorf("cardPointsReport: %+v %s", r.Errors, resttest.MustJSON(r.Data))
	}
	rr := e.GraphQL(app, `query($p: ID!, $m: ID!, $r: ID!, $d: String!) { memberEarningRuleReport(programID: $p, memberID: $m, earningRuleID: $r,
		range: {startDate: $d, endDate: $d, resolution: "day"}) { date count } }`,
		map[string]any{"p": s.Program, "m": s.Member, "r": rule, "d": today})
	if len(rr.Errors) > 0 || resttest.MustJSON(rr.Data["memberEarningRuleReport"]) != `[{"count":0,"date":"`+today+`"}]` {
		t.Errorf("memberEarningRuleReport: %+v %s", rr.Errors, resttest.MustJSON(rr.Data))
	}
	b := e.GraphQL(app, `query($p: ID!, $m: ID!) { memberBenefitTransactions(programID: $p, memberID: $m, page: {limit: 5, asc: false}) { hasMore data { benefitID } } }`,
		map[string]any{"p": s.Program, "m": s.Member})
	if len(b.Errors) > 0 || resttest.MustJSON(b.Data["memberBenefitTransactions"]) != `{"data":[],"hasMore":false}` {
		t.Errorf("memberBenefitTransactions: %+v %s", b.Errors, resttest.MustJSON(b.Data))
	}
	cust := resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "gql-batch"}, app)["id"].(string)
	m := e.GraphQL(app, `mutation($p: ID!, $c: ID!) { batchCreateLoyaltyMembers(programID: $p, entries: [{customerID: $c}]) { id } }`,
		map[string]any{"p": s.Program, "c": cust})
	if len(m.Errors) > 0 {
		t.Fatalf("batchCreateLoyaltyMembers: %+v", m.Errors)
	}
	aa := e.WaitForJob(app, m.Data["batchCreateLoyaltyMembers"].(map[string]any)["id"].(string))
	if res := aa["result"].(map[string]any); res["done_count"] != 1.0 {
		t.Errorf("batch job %s", resttest.MustJSON(aa))
	}
}
