package loyaltyv2_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestDeactivateEarningRule(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	active := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)
	id := active["id"].(string)
	if !strings.HasPrefix(id, "lern_") || active["status"] != "ACTIVE" {
		t.Fatalf("created %v", active)
	}
	got := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules/"+id+"/deactivate", nil, s.H)
	if got["status"] != "INACTIVE" || got["object"] != "earning_rule" || got["updated_at"] == nil {
		t.Errorf("deactivated %v", got)
	}
	for _, f := range []string{"error", "validity_hours", "start_date", "end_date", "trigger_limits"} {
		if v, ok := got[f]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want explicit null", f, v, ok)
		}
	}
	for _, f := range []string{"id", "name", "earnings", "trigger", "metadata", "created_at"} {
		if got[f] == nil {
			t.Errorf("%s missing", f)
		}
	}
	// INACTIVE → INACTIVE and DRAFT → INACTIVE are refused; nothing changes.
	body := resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/earning-rules/"+id+"/deactivate", nil, s.H), 409, "invalid_state_transition")
	if body["message"] != "Invalid state transition" || !strings.Contains(body["details"].(string), "INACTIVE") {
		t.Errorf("error %v", body)
	}
	draft := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, ""), s.H)
	if draft["status"] != "DRAFT" {
		t.Errorf("default status %v", draft["status"])
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/earning-rules/"+draft["id"].(string)+"/deactivate", nil, s.H), 409, "invalid_state_transition")
	after := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/earning-rules/"+draft["id"].(string), nil, s.H)
	if after["status"] != "DRAFT" || after["updated_at"] != nil {
		t.Errorf("refused move changed the rule: %v", after)
	}
	// Activate INACTIVE → ACTIVE, then deactivate works again.
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules/"+id+"/activate", nil, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules/"+id+"/deactivate", nil, s.H)
	body = resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/earning-rules/lern_00/deactivate", nil, s.H), 404, "not_found")
	if body["resource_type"] != "earning_rule" {
		t.Errorf("404 %v", body)
	}
}

func TestCreateEarningRuleValidation(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	with := func(k string, v any) map[string]any {
		b := resttest.EarningRuleBody(s.CardDef, "")
		b[k] = v
		return b
	}
	effect := func(eff map[string]any) []any { return []any{map[string]any{"effects": []any{eff}}} }
	for name, c := range map[string]struct {
		body   map[string]any
		status int
		detail string
	}{
		"no trigger":              {with("trigger", nil), 400, "trigger"},
		"unknown event":           {with("trigger", map[string]any{"event": "x"}), 400, ".trigger.event"},
		"custom event without id": {with("trigger", map[string]any{"event": "customer.custom_event"}), 400, "custom_event.schema_id"},
		"segment without id":      {with("trigger", map[string]any{"event": "customer.segment.entered"}), 400, "segment.id"},
		"no earnings":             {with("earnings", []any{}), 400, ".earnings"},
		"two effects in one":      {with("earnings", effect(map[string]any{"points": map[string]any{"value": 1, "card_definition_id": s.CardDef}, "incentive": map[string]any{"id": "linc_00"}})), 400, "earnings[0].effects[0]"},
		"unknown incentive":       {with("earnings", effect(map[string]any{"incentive": map[string]any{"id": "linc_00"}})), 404, "linc_00"},
		"two expirations":         {with("earnings", effect(map[string]any{"points": map[string]any{"value": 1, "card_definition_id": s.CardDef, "points_expiration": map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1}}, "sliding_expiration": map[string]any{"period": map[string]any{"value": 1}}}}})), 400, "points_expiration"},
		"bad validity hours":      {with("validity_hours", map[string]any{"daily": []any{map[string]any{"days_of_week": []int{7}, "start_time": "08:00", "end_time": "20:00"}}}), 400, "days_of_week"},
		"bad cooldown":            {with("trigger_limits", map[string]any{"cooldown": map[string]any{"fixed_cooldown": map[string]any{"period": map[string]any{"value": 0}}}}), 400, "cooldown"},
		"status INACTIVE":         {with("status", "INACTIVE"), 400, ".status"},
		"end before start":        {with("end_date", "2020-01-01T00:00:00Z"), 400, "end_date"},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "end before start" {
				c.body["start_date"] = "2021-01-01T00:00:00Z"
			}
			key := map[int]string{400: "invalid_payload", 404: "not_found"}[c.status]
			body := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/earning-rules", c.body, s.H), c.status, key)
			if d, _ := body["details"].(string); !strings.Contains(d, c.detail) {
				t.Errorf("details %q do not name %q", d, c.detail)
			}
		})
	}
	full := resttest.EarningRuleBody(s.CardDef, "ACTIVE")
	schemaID := resttest.DefineEvent(t, e, resttest.App(e.Project), "purchase", nil)["id"]
	full["trigger"] = map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": schemaID}}
	full["validity_hours"] = map[string]any{"daily": []any{map[string]any{"days_of_week": []int{1, 2}, "start_time": "08:00", "end_time": "20:00"}}}
	full["trigger_limits"] = map[string]any{"cooldown": map[string]any{"fixed_cooldown": map[string]any{"period": map[string]any{"value": 3}}},
		"frequency": map[string]any{"limits": []any{map[string]any{"type": "TIME_BASED", "period": map[string]any{"type": "CURRENT_PERIOD", "current_period": map[string]any{"type": "DAY"}}, "triggers": map[string]any{"max": 2}}}}}
	full["error"] = map[string]any{"message": "not today"}
	got := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", full, s.H)
	if got["trigger_limits"] == nil || got["validity_hours"] == nil || got["error"].(map[string]any)["message"] != "not today" {
		t.Errorf("created %v", got)
	}
}

// TestEarningRulePointsValueMustBeAnInteger: points.value is a whole
// number from 0 to 2^53 − 1 (the reference's range). A fraction, 1e308 or
// 2^63 is refused — over REST (create and update) and GraphQL, and for
// incentives — instead of being credited truncated or overflowed; the
// maximum is credited exactly.
func TestEarningRulePointsValueMustBeAnInteger(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	rule := func(value string) []byte {
		return []byte(`{"name": "earn", "status": "ACTIVE", "trigger": {"event": "customer.order.paid"},
			"earnings": [{"effects": [{"points": {"value": ` + value + `, "card_definition_id": "` + s.CardDef + `"}}]}]}`)
	}
	bad := []string{"1.5", "1e308", "9223372036854775808", "9007199254740992", "-1", "0.0001"}
	for _, v := range bad {
		body := resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/earning-rules", rule(v), s.H), http.StatusBadRequest, "invalid_payload")
		want := ".earnings[0].effects[0].points.value must be an integer from 0 to 9007199254740991"
		if v == "9223372036854775808" { // past int64: the rule of every body (docs/security.md) refuses it first
			want = ".earnings[0].effects[0].points.value must be an integer between -9223372036854775808 and 9223372036854775807"
		}
		if d, _ := body["details"].(string); !strings.Contains(d, want) {
			t.Errorf("value %s: details %q", v, d)
		}
	}
	if n := e.DB.Client.EarningRule.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Fatalf("%d earning rules stored after refused requests", n)
	}
	for _, v := range []string{"0", "7", "7.0", "9007199254740991"} {
		if r := e.Do(http.MethodPost, "/v2/loyalties/earning-rules", rule(v), s.H); r.Status != http.StatusOK {
			t.Errorf("value %s: %d %s", v, r.Status, r.Body)
		}
	}
	// Updating a rule checks the same.
	id := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "DRAFT"), s.H)["id"].(string)
	upd := []byte(`{"earnings": [{"effects": [{"points": {"value": 2.5, "card_definition_id": "` + s.CardDef + `"}}]}]}`)
	resttest.WantErrorKey(t, e.Do(http.MethodPut, "/v2/loyalties/earning-rules/"+id, upd, s.H), http.StatusBadRequest, "invalid_payload")
	// GraphQL refuses too (the check is in the use case).
	q := `mutation($e: Earnings) { createEarningRule(input: {name: "gql", trigger: {event: "customer.order.paid"}, earnings: $e}) { id } }`
	for _, v := range []any{1.5, 1e308} {
		r := e.GraphQL(app, q, map[string]any{"e": []any{map[string]any{"effects": []any{map[string]any{
			"points": map[string]any{"value": v, "card_definition_id": s.CardDef}}}}}})
		if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" {
			t.Errorf("graphql value %v: %v %v", v, r.Data, r.Errors)
		}
	}
	// Incentives' points.value is checked the same way.
	inc := []byte(`{"name": "Half", "type": "POINTS", "stock": 1, "points": {"value": 0.5, "card_definition_id": "` + s.CardDef + `"}}`)
	body := resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/incentives", inc, s.H), http.StatusBadRequest, "invalid_payload")
	if d, _ := body["details"].(string); !strings.Contains(d, ".points.value must be an integer") {
		t.Errorf("incentive details %q", d)
	}

	// The largest value is credited exactly.
	schemaID := resttest.DefineEvent(t, e, app, "big", nil)["id"].(string)
	big := []byte(`{"name": "big", "status": "ACTIVE", "trigger": {"event": "customer.custom_event", "custom_event": {"schema_id": "` + schemaID + `"}},
		"earnings": [{"effects": [{"points": {"value": 9007199254740991, "card_definition_id": "` + s.CardDef + `"}}]}]}`)
	if r := e.Do(http.MethodPost, "/v2/loyalties/earning-rules", big, s.H); r.Status != http.StatusOK {
		t.Fatalf("big rule: %d %s", r.Status, r.Body)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "big", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	r := e.Do(http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member, nil, s.H)
	if !strings.Contains(string(r.Body), `"balance":{"points":9007199254740991,"pending_points":0}`) {
		t.Errorf("member after the event: %s", r.Body)
	}
}

func TestRewardActivities(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	camp := resttest.CreateCampaign(t, e, map[string]any{"name": "Gift", "voucher": map[string]any{
		"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}})["id"].(string)
	r := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{
		"name": "Gift card", "type": "DIGITAL", "digital": map[string]any{"gift_vouchers": map[string]any{"campaign_id": camp, "balance": 500}},
	}, s.H)
	id := r["id"].(string)
	if !strings.HasPrefix(id, "lrew_") || r["status"] != "DRAFT" || r["object"] != "reward" {
		t.Fatalf("reward %v", r)
	}
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/rewards/"+id, map[string]any{"name": "Gift card 2"}, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards/"+id+"/activate", nil, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards/"+id+"/deactivate", nil, s.H)
	resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/rewards/"+id+"/deactivate", nil, s.H), 409, "invalid_state_transition")
	got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/rewards/"+id+"/activities", nil, s.H)
	data := got["data"].([]any)
	want := []string{"vl.reward.deactivated", "vl.reward.activated", "vl.reward.updated", "vl.reward.created"}
	if len(data) != len(want) || got["cursor"] != nil {
		t.Fatalf("activities %v", got)
	}
	for i, d := range data {
		a := d.(map[string]any)
		snap := a["data"].(map[string]any)["reward"].(map[string]any)
		if a["type"] != want[i] || a["reward_id"] != id || snap["id"] != id {
			t.Errorf("activity %d: %v", i, a)
		}
	}
	first := data[3].(map[string]any)["data"].(map[string]any)["reward"].(map[string]any)
	if first["name"] != "Gift card" || first["status"] != "DRAFT" {
		t.Errorf("created snapshot %v", first)
	}
	last := data[0].(map[string]any)["data"].(map[string]any)["reward"].(map[string]any)
	if last["name"] != "Gift card 2" || last["status"] != "INACTIVE" {
		t.Errorf("latest snapshot %v", last)
	}
	// Two per page, oldest first.
	ids := pageAll(t, e, s.H, "/v2/loyalties/rewards/"+id+"/activities", mustQuery(t, "limit=1&order=created_at"), nil)
	if len(ids) != 4 {
		t.Errorf("paged %d activities", len(ids))
	}
	// Filters: the reward activity types, AND/OR.
	upd := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/rewards/"+id+"/activities?filters[type][conditions][$is]=vl.reward.updated", nil, s.H)
	if d := upd["data"].([]any); len(d) != 1 || d[0].(map[string]any)["type"] != "vl.reward.updated" {
		t.Errorf("type filter: %v", upd)
	}
	or := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/rewards/"+id+"/activities?filters[junction]=OR&filters[type][conditions][$is]=vl.reward.updated&filters[type][conditions][$in]=vl.reward.created,vl.reward.activated", nil, s.H)
	if d := or["data"].([]any); len(d) != 3 {
		t.Errorf("OR filter: %d activities", len(d))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/rewards/"+id+"/activities?filters[type][conditions][$is]=vl.card.created", nil, s.H), 400, "invalid_query_params")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "x", "type": "MATERIAL"}, s.H), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "x", "type": "DIGITAL",
		"digital": map[string]any{"discount_coupons": map[string]any{"campaign_id": "camp_00"}}}, s.H), 404, "not_found")
	// A MATERIAL reward's product, or SKU of that product, must exist (as an incentive's).
	product, sku := resttest.NewMaterial(t, e, resttest.App(e.Project))
	for _, bad := range []struct {
		material map[string]any
		status   int
		kind     string
	}{
		{map[string]any{"product": map[string]any{"id": "prod_0000000000000000"}}, 404, "product"},
		{map[string]any{"sku": map[string]any{"product_id": product, "id": "sku_0000000000000000"}}, 404, "sku"},
		{map[string]any{"sku": map[string]any{"product_id": "prod_0000000000000000", "id": sku}}, 400, ""},
	} {
		r := e.DoJSON(http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL", "material": bad.material}, s.H)
		if r.Status != bad.status || (bad.kind != "" && !strings.Contains(string(r.Body), `"resource_type":"`+bad.kind+`"`)) {
			t.Errorf("material %v: %d %s", bad.material, r.Status, r.Body)
		}
	}
	mat := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL",
		"material": map[string]any{"sku": map[string]any{"product_id": product, "id": sku}}}, s.H)["id"].(string)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/rewards/"+mat, map[string]any{"material": map[string]any{
		"product": map[string]any{"id": "prod_0000000000000000"}}}, s.H), 404, "not_found")
}

func TestDeactivateEarningRuleConcurrently(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	id := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)["id"].(string)
	statuses := make([]int, 6)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.Do(http.MethodPost, "/v2/loyalties/earning-rules/"+id+"/deactivate", nil, s.H).Status
		}()
	}
	wg.Wait()
	ok, conflict := 0, 0
	for _, st := range statuses {
		switch st {
		case 200:
			ok++
		case 409:
			conflict++
		}
	}
	if ok != 1 || conflict != len(statuses)-1 {
		t.Errorf("statuses %v: want one 200, the rest 409", statuses)
	}
}
