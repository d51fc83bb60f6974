package loyaltyv2_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestAdjustPointsConcurrently(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	path := s.CardPath() + "/points"
	got := resttest.MustOK(t, e, http.MethodPost, path, map[string]any{"points": 0}, s.H)
	if got["status"] != "NO_CHANGE" || got["transaction"] != nil {
		t.Errorf("zero: %v", got)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, map[string]any{"points": -1}, s.H), 400, "insufficient_points")
	first := resttest.MustOK(t, e, http.MethodPost, path, map[string]any{"points": 30, "reason": "welcome", "source_id": "s-1"}, s.H)
	tx := first["transaction"].(map[string]any)
	// The documents' CardTransaction: a manual addition is ADMIN_CREDIT, with the card's program, member and definition.
	if first["status"] != "TRANSACTION_CREATED" || tx["type"] != "ADMIN_CREDIT" || tx["balance"] != float64(30) ||
		tx["reason"] != "welcome" || tx["source_id"] != "s-1" || tx["program_id"] != s.Program || tx["member_id"] != s.Member ||
		tx["card_definition_id"] != s.CardDef || tx["status"] != "APPROVED" || resttest.MustJSON(tx["details"]) != `{"metadata":{},"points":{"total":30},"reason":"welcome"}` {
		t.Errorf("addition: %v", first)
	}
	// Concurrent additions and removals: removals that would go below zero
	// are refused; the balance stays the sum of the transactions.
	var wg sync.WaitGroup
	moves := []int{10, -25, 7, -40, 15, -5, 20, -30, 3, -8, 12, -12, 9, -50, 4, -1}
	statuses := make([]int, len(moves))
	for i, p := range moves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.DoJSON(http.MethodPost, path, map[string]any{"points": p}, s.H).Status
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		if st != 200 && st != 400 {
			t.Errorf("move %d (%d): status %d", i, moves[i], st)
		}
	}
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID})
	card, err := e.DB.Client.Card.Get(ctx, s.Card)
	if err != nil {
		t.Fatal(err)
	}
	txs, err := e.DB.Client.CardTransaction.Query().Where(cardtransaction.CardID(s.Card)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, x := range txs {
		sum += x.Amount
		if x.Balance < 0 {
			t.Errorf("transaction %s left balance %d", x.ID, x.Balance)
		}
	}
	if card.Balance != sum || card.Balance < 0 {
		t.Errorf("balance %d, sum of %d transactions %d", card.Balance, len(txs), sum)
	}
	// The transactions list pages through the same moves.
	ids := pageAll(t, e, s.H, s.CardPath()+"/transactions", mustQuery(t, "limit=3"), nil)
	if len(ids) != len(txs) {
		t.Errorf("listed %d transactions, stored %d", len(ids), len(txs))
	}
	m := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member, nil, s.H)
	if b := resttest.MemberCardAt(t, m, 0)["balance"].(map[string]any)["points"]; b != float64(sum) {
		t.Errorf("member card balance %v, want %d", b, sum)
	}
}

func TestAssignAndUnassignCardGraphQL(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	const unassign = `mutation($p: ID!, $m: ID!, $c: ID!) { unassignCard(programID: $p, memberID: $m, cardID: $c) { id memberID } }`
	const assign = `mutation($p: ID!, $m: ID!, $c: ID!) { assignCard(programID: $p, memberID: $m, cardID: $c) { id memberID } }`
	vars := map[string]any{"p": s.Program, "m": s.Member, "c": s.Card}
	r := e.GraphQL(resttest.App(e.Project), unassign, vars)
	if len(r.Errors) > 0 || r.Data["unassignCard"].(map[string]any)["memberID"] != nil {
		t.Fatalf("unassign: %+v", r)
	}
	// An unassigned card is not the member's any more.
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.CardPath()+"/activities", nil, s.H), 404, "not_found")
	r = e.GraphQL(resttest.App(e.Project), assign, vars)
	if len(r.Errors) > 0 || r.Data["assignCard"].(map[string]any)["memberID"] != s.Member {
		t.Fatalf("assign: %+v", r)
	}
	got := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/activities?filters[type][conditions][$in]=vl.card.assigned,vl.card.unassigned", nil, s.H)
	var types []string
	for _, d := range got["data"].([]any) {
		types = append(types, d.(map[string]any)["type"].(string))
	}
	if len(types) != 3 || types[0] != "vl.card.assigned" || types[1] != "vl.card.unassigned" {
		t.Errorf("activities %v", types)
	}
	// Through GraphQL: the same list, with an unknown card named.
	q := `query($p: ID!, $m: ID!, $c: ID!) { cardActivities(programID: $p, memberID: $m, cardID: $c, first: 2) { totalCount edges { node { id type groupID source } } pageInfo { hasNextPage } } }`
	r = e.GraphQL(resttest.App(e.Project), q, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("cardActivities: %+v", r.Errors)
	}
	conn := r.Data["cardActivities"].(map[string]any)
	if conn["totalCount"] != float64(5) || len(conn["edges"].([]any)) != 2 || conn["pageInfo"].(map[string]any)["hasNextPage"] != true {
		t.Errorf("connection %v", conn)
	}
	vars["c"] = "lcrd_00"
	r = e.GraphQL(resttest.App(e.Project), q, vars)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != float64(404) {
		t.Errorf("unknown card: %+v", r.Errors)
	}
}

func TestLoyaltyGraphQL(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	r := e.GraphQL(resttest.App(e.Project), `mutation($cd: String!) {
		createIncentive(input: {name: "GQL", type: POINTS, stock: 3, points: {value: 2, card_definition_id: $cd}}) { id status stock points }
	}`, map[string]any{"cd": s.CardDef})
	if len(r.Errors) > 0 {
		t.Fatalf("createIncentive: %+v", r.Errors)
	}
	inc := r.Data["createIncentive"].(map[string]any)
	if inc["status"] != "DRAFT" || inc["points"].(map[string]any)["card_definition_id"] != s.CardDef {
		t.Errorf("incentive %v", inc)
	}
	// The same rules as REST: a missing detail is a 400.
	r = e.GraphQL(resttest.App(e.Project), `mutation { createIncentive(input: {name: "Bad", type: MATERIAL, stock: 1}) { id } }`, nil)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != float64(400) || r.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("invalid incentive: %+v", r.Errors)
	}
	r = e.GraphQL(resttest.App(e.Project), `mutation($cd: String!) {
		createEarningRule(input: {name: "R", status: DRAFT, trigger: {event: "customer.order.paid"}, earnings: [{effects: [{points: {value: 1, card_definition_id: $cd}}]}]}) { id status }
	}`, map[string]any{"cd": s.CardDef})
	if len(r.Errors) > 0 {
		t.Fatalf("createEarningRule: %+v", r.Errors)
	}
	id := r.Data["createEarningRule"].(map[string]any)["id"].(string)
	r = e.GraphQL(resttest.App(e.Project), `mutation($id: ID!) { deactivateEarningRule(id: $id) { id status } }`, map[string]any{"id": id})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != float64(409) || r.Errors[0].Extensions["key"] != "invalid_state_transition" {
		t.Errorf("deactivate DRAFT: %+v", r.Errors)
	}
	r = e.GraphQL(resttest.App(e.Project), `mutation($id: ID!) { activateEarningRule(id: $id) { status } }`, map[string]any{"id": id})
	if len(r.Errors) > 0 {
		t.Fatalf("activate: %+v", r.Errors)
	}
	r = e.GraphQL(resttest.App(e.Project), `mutation($id: ID!) { deactivateEarningRule(id: $id) { status } }`, map[string]any{"id": id})
	if len(r.Errors) > 0 || r.Data["deactivateEarningRule"].(map[string]any)["status"] != "INACTIVE" {
		t.Errorf("deactivate ACTIVE: %+v", r)
	}
	// Connections and node(id:).
	r = e.GraphQL(resttest.App(e.Project), `query($id: ID!) { earningRules(first: 5) { totalCount } loyaltyPrograms { edges { node { id name members(first: 1) { totalCount } } } } node(id: $id) { ... on EarningRule { status } } }`, map[string]any{"id": id})
	if len(r.Errors) > 0 {
		t.Fatalf("queries: %+v", r.Errors)
	}
	if r.Data["earningRules"].(map[string]any)["totalCount"] != float64(1) || r.Data["node"].(map[string]any)["status"] != "INACTIVE" {
		t.Errorf("data %v", r.Data)
	}
	r = e.GraphQL(resttest.App(e.Project), `mutation($p: ID!, $m: ID!, $c: ID!) { adjustCardPoints(programID: $p, memberID: $m, cardID: $c, input: {points: 7, reason: "gql"}) { status transaction { amount balance type } } }`,
		map[string]any{"p": s.Program, "m": s.Member, "c": s.Card})
	if len(r.Errors) > 0 || r.Data["adjustCardPoints"].(map[string]any)["transaction"].(map[string]any)["balance"] != float64(7) {
		t.Errorf("adjustCardPoints: %+v", r)
	}
}

func TestLoyaltyTenancy(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prodA, _ := resttest.NewMaterial(t, e, resttest.App(e.Project))
	inc := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "A only", "type": "MATERIAL", "stock": 1, "material": productMaterial(prodA)}, s.H)["id"].(string)
	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)["id"].(string)
	rew := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{
		"name": "Mug", "type": "MATERIAL", "material": resttest.V2ProductMaterial(t, e)}, s.H)["id"].(string)
	projectB := e.NewProject("project B")
	b := resttest.V2(t, e, projectB)
	for _, c := range []struct{ method, path string }{
		{"GET", "/v2/loyalties/incentives/" + inc},
		{"POST", "/v2/loyalties/incentives/" + inc + "/activate"},
		{"GET", "/v2/loyalties/earning-rules/" + rule},
		{"POST", "/v2/loyalties/earning-rules/" + rule + "/deactivate"},
		{"GET", "/v2/loyalties/rewards/" + rew},
		{"GET", "/v2/loyalties/rewards/" + rew + "/activities"},
		{"GET", "/v2/loyalties/programs/" + s.Program},
		{"GET", "/v2/loyalties/card-definitions/" + s.CardDef},
		{"GET", "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member},
		{"GET", s.CardPath() + "/activities"},
		{"POST", s.CardPath() + "/points"},
	} {
		r := e.Do(c.method, c.path, []byte(`{"points": 5}`), b)
		if r.Status != 404 {
			t.Errorf("%s %s with project B: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	// Project B's incentive may reuse A's name; A's card definition and product are unknown to B.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "A only", "type": "MATERIAL", "stock": 1, "material": productMaterial(prodA)}, b), 404, "not_found")
	prodB, _ := resttest.NewMaterial(t, e, resttest.App(projectB))
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "A only", "type": "MATERIAL", "stock": 1, "material": productMaterial(prodB)}, b)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "pts", "type": "POINTS", "stock": 1, "points": map[string]any{"value": 1, "card_definition_id": s.CardDef}}, b), 404, "not_found")
	// And A's rule is unchanged.
	if got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/earning-rules/"+rule, nil, s.H); got["status"] != "ACTIVE" {
		t.Errorf("rule %v", got)
	}
}

func TestCardCodeGenerationFailure(t *testing.T) {
	e := resttest.New(t)
	h := resttest.V2(t, e, e.Project)
	def := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{
		"name": "Tiny", "code_config": map[string]any{"pattern": "#", "charset": "AB"}}, h)["id"].(string)
	prg := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{
		"name": "Tiny club", "card_definitions": []any{map[string]any{"id": def}}}, h)["id"].(string)
	var failedCard, member string
	for i := range 3 {
		cust := resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "c" + string(rune('0'+i))}, resttest.App(e.Project))
		m := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+prg+"/members", map[string]any{"customer_id": cust["id"]}, h)
		card := resttest.MemberCardAt(t, m, 0)
		if i == 2 {
			if card["code"] != nil {
				t.Fatalf("third card got code %v from a two-code space", card["code"])
			}
			failedCard, member = card["id"].(string), m["id"].(string)
		} else if c, _ := card["code"].(string); c != "A" && c != "B" {
			t.Fatalf("card code %v", card["code"])
		}
	}
	got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+prg+"/members/"+member+"/cards/"+failedCard+
		"/activities?filters[type][conditions][$is]=vl.card.code_generation.failed", nil, h)
	if d := got["data"].([]any); len(d) != 1 {
		t.Errorf("failed activities: %v", got)
	}
}

func TestMemberOncePerProgram(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	path := "/v2/loyalties/programs/" + s.Program + "/members"
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, map[string]any{"customer_id": s.Cust}, s.H), 409, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, map[string]any{"customer_id": "cust_00"}, s.H), 404, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, map[string]any{}, s.H), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/programs/lprg_00/members", map[string]any{"customer_id": s.Cust}, s.H), 404, "not_found")
	got := resttest.MustOK(t, e, http.MethodPost, path+"/"+s.Member+"/deactivate", nil, s.H)
	if got["status"] != "INACTIVE" || len(got["cards"].([]any)) != 1 {
		t.Errorf("deactivated member %v", got)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, path+"/"+s.Member+"/deactivate", nil, s.H), 409, "invalid_state_transition")
}
