package loyaltyv1_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1TierChangesAreCustomerActivities: with tiers Bronze 1-99 and Gold
// 100+, each points move that crosses a tier boundary leaves exactly one
// customer.loyalty.tier.* activity of the right type on the card's
// holder — in the customer's activities (both routes), the member's
// activity and GraphQL — and a move that stays inside a tier, or that is
// refused, leaves none.
func TestV1TierChangesAreCustomerActivities(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Tier activities", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "climber")["code"].(string)
	r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{
		map[string]any{"name": "Bronze", "points": map[string]any{"from": 1, "to": 99}},
		map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app)
	var tiers []map[string]any
	if err := json.Unmarshal(r.Body, &tiers); r.Status != http.StatusOK || err != nil || len(tiers) != 2 {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	bronze, gold := tiers[0]["id"], tiers[1]["id"]
	tierActivities := func(typ string) []map[string]any {
		t.Helper()
		list := resttest.MustOK(t, e, http.MethodGet, "/v1/customers/climber/activities?limit=100&type="+typ, nil, app)
		var out []map[string]any
		for _, a := range list["data"].([]any) {
			out = append(out, a.(map[string]any))
		}
		if list["total"] != float64(len(out)) {
			t.Errorf("%s: total %v for %d items", typ, list["total"], len(out))
		}
		return out
	}
	const (
		joined     = "customer.loyalty.tier.joined"
		upgraded   = "customer.loyalty.tier.upgraded"
		downgraded = "customer.loyalty.tier.downgraded"
		left       = "customer.loyalty.tier.left"
	)
	steps := []struct {
		points int
		want   map[string]int // activities of each type after the move
	}{
		{10, map[string]int{joined: 1}},                               // none → Bronze
		{20, map[string]int{joined: 1}},                               // inside Bronze
		{150, map[string]int{joined: 1, upgraded: 1}},                 // Bronze → Gold across the boundary
		{-170, map[string]int{joined: 1, upgraded: 1, downgraded: 1}}, // Gold → Bronze (10 left)
		{-10, map[string]int{joined: 1, upgraded: 1, downgraded: 1, left: 1}},
	}
	for i, s := range steps {
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": s.points}, app)
		for _, typ := range []string{joined, upgraded, downgraded, left} {
			if n := len(tierActivities(typ)); n != s.want[typ] {
				t.Errorf("step %d (%+d): %d %s activities, want %d", i, s.points, n, typ, s.want[typ])
			}
		}
	}
	// A refused move (more than the balance) records nothing.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": -5}, app),
		http.StatusBadRequest, "invalid_amount")
	if n := len(tierActivities(left)); n != 1 {
		t.Errorf("%d left activities after a refused move, want 1", n)
	}

	up := tierActivities(upgraded)[0]["data"].(map[string]any)
	if from, to := up["loyalty_tier_from"].(map[string]any), up["loyalty_tier_to"].(map[string]any); from["id"] != bronze ||
		to["id"] != gold || to["name"] != "Gold" || up["campaign"].(map[string]any)["id"] != id {
		t.Errorf("upgrade activity data %v", up)
	}
	if l := tierActivities(left)[0]["data"].(map[string]any)["loyalty_tier"].(map[string]any); l["id"] != bronze {
		t.Errorf("left activity names tier %v, want Bronze", l)
	}

	// The member's activity (both routes) and the legacy /activity list show them too.
	count := func(list map[string]any, typ string) int {
		n := 0
		for _, a := range list["data"].([]any) {
			if a.(map[string]any)["type"] == typ {
				n++
			}
		}
		return n
	}
	for _, path := range []string{"/v1/loyalties/members/" + code + "/activity?limit=100", "/v1/loyalties/" + id + "/members/" + code + "/activity?limit=100",
		"/v1/customers/climber/activity?limit=100"} {
		list := resttest.MustOK(t, e, http.MethodGet, path, nil, app)
		if count(list, joined) != 1 || count(list, upgraded) != 1 || count(list, downgraded) != 1 || count(list, left) != 1 {
			t.Errorf("%s: tier activities %s", path, resttest.MustJSON(list))
		}
	}
	// Another program's filter leaves them out.
	other := resttest.NewV1Program(t, e, app, "Other program", 0)["id"].(string)
	if n := len(resttest.MustOK(t, e, http.MethodGet, "/v1/customers/climber/activities?campaign_id="+other+"&type="+joined, nil, app)["data"].([]any)); n != 0 {
		t.Errorf("%d joined activities in another program", n)
	}

	res := e.GraphQL(app, `query($c: String!) {
		loyaltyV1MemberActivity(code: $c, input: {limit: 100}) { data { type data } }
		customerActivityList(idOrSourceID: "climber", input: {type: "customer.loyalty.tier.upgraded"}) { total data { id type } } }`,
		map[string]any{"c": code})
	if len(res.Errors) > 0 {
		t.Fatalf("%+v", res.Errors)
	}
	if n := count(res.Data["loyaltyV1MemberActivity"].(map[string]any), downgraded); n != 1 {
		t.Errorf("GraphQL member activity: %d downgrades, want 1", n)
	}
	if l := res.Data["customerActivityList"].(map[string]any); l["total"] != float64(1) {
		t.Errorf("GraphQL customer activities %v", l)
	}
}
