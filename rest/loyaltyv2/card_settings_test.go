package loyaltyv2_test

import (
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2CardDefinitionSettings: a card definition answers the documents'
// points_expiration, earning/spending limits, refunds and balance
// settings (defaults when never set), stores what create and update send,
// refuses bad ones with 400 (writing nothing), and null restores a
// default; its code_config shows prefix and postfix, which the cards it
// issues carry; its activities' snapshots have the same shape (the strict
// check holds every answer to the document).
func TestV2CardDefinitionSettings(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	plain := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+s.CardDef, nil, s.H)
	if resttest.MustJSON(plain["points_expiration"]) != `{"type":"NO_EXPIRATION"}` ||
		resttest.MustJSON(plain["earning_limits"]) != `{"global":{"limits":[],"type":"NO_LIMIT"},"transactions":{"limits":[],"type":"NO_LIMIT"}}` ||
		resttest.MustJSON(plain["refunds"]) != `{"earned_points":{"methods":[],"type":"NONE"},"spent_points":{"methods":[],"type":"NONE"}}` ||
		resttest.MustJSON(plain["balance_settings"]) != `{"allow_negative":false}` {
		t.Errorf("defaults: %s", resttest.MustJSON(plain))
	}
	if cc := plain["code_config"].(map[string]any); cc["prefix"] != "" || cc["postfix"] != "" || cc["pattern"] != "GOLD-######" {
		t.Errorf("code_config %v", cc)
	}

	settings := map[string]any{
		"points_expiration": map[string]any{"type": "SLIDING_EXPIRATION", "sliding_expiration": map[string]any{
			"earning_activity": true, "spending_activity": false, "custom_activity": false, "period": map[string]any{"value": 3, "unit": "MONTH"}}},
		"earning_limits": map[string]any{"global": map[string]any{"type": "NO_LIMIT"},
			"transactions": map[string]any{"type": "LIMITED", "limits": []any{map[string]any{"type": "POINTS", "max": 100}}}},
		"spending_limits": map[string]any{"global": map[string]any{"type": "LIMITED", "limits": []any{map[string]any{"type": "SPENDING_BASED", "max": 500}}},
			"transactions": map[string]any{"type": "NO_LIMIT", "limits": nil}},
		"refunds": map[string]any{"spent_points": map[string]any{"type": "REFUNDABLE", "methods": []any{map[string]any{"type": "RETURN_POINTS", "mode": "REFUND_ALL"}}},
			"earned_points": map[string]any{"type": "REFUNDABLE", "methods": []any{map[string]any{"type": "REVOKE_FROM_BALANCE", "mode": "REVOKE_TO_ZERO"}}}},
		"balance_settings": map[string]any{"allow_negative": false}, // true needs NO_EXPIRATION
	}
	body := map[string]any{"name": "Silver", "status": "ACTIVE", "code_config": map[string]any{"prefix": "LOY-", "postfix": "-X", "length": 6, "charset": "0123456789"}}
	for k, v := range settings {
		body[k] = v
	}
	def := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", body, s.H)
	got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+def["id"].(string), nil, s.H)
	if pe := got["points_expiration"].(map[string]any); pe["type"] != "SLIDING_EXPIRATION" ||
		resttest.MustJSON(pe["sliding_expiration"].(map[string]any)["custom_activity_types"]) != `[]` ||
		got["earning_limits"].(map[string]any)["transactions"].(map[string]any)["type"] != "LIMITED" ||
		resttest.MustJSON(got["spending_limits"].(map[string]any)["transactions"]) != `{"limits":[],"type":"NO_LIMIT"}` ||
		got["refunds"].(map[string]any)["earned_points"].(map[string]any)["type"] != "REFUNDABLE" ||
		resttest.MustJSON(got["balance_settings"]) != `{"allow_negative":false}` {
		t.Errorf("stored settings: %s", resttest.MustJSON(got))
	}
	if cc := got["code_config"].(map[string]any); cc["prefix"] != "LOY-" || cc["postfix"] != "-X" || cc["length"] != 6.0 {
		t.Errorf("code_config %v", cc)
	}

	// Bad settings are 400 and change nothing.
	path := "/v2/loyalties/card-definitions/" + def["id"].(string)
	for name, bad := range map[string]map[string]any{
		"expiration without its variant": {"points_expiration": map[string]any{"type": "ROLLING_EXPIRATION"}},
		"variant of another type":        {"points_expiration": map[string]any{"type": "NO_EXPIRATION", "calendar_expiration": map[string]any{"expiration_dates": []any{map[string]any{"day": 1, "month": 1}}}}},
		"period without unit":            {"points_expiration": map[string]any{"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 1}}}},
		"limited without limits":         {"earning_limits": map[string]any{"global": map[string]any{"type": "LIMITED"}, "transactions": map[string]any{"type": "NO_LIMIT"}}},
		"limit of another group":         {"spending_limits": map[string]any{"global": map[string]any{"type": "NO_LIMIT"}, "transactions": map[string]any{"type": "LIMITED", "limits": []any{map[string]any{"type": "SPENDING", "max": 1}}}}},
		"refund policy missing":          {"refunds": map[string]any{"spent_points": map[string]any{"type": "NONE"}}},
		"refund method unknown":          {"refunds": map[string]any{"spent_points": map[string]any{"type": "REFUNDABLE", "methods": []any{map[string]any{"type": "REVOKE_FROM_BALANCE", "mode": "REFUND_ALL"}}}, "earned_points": map[string]any{"type": "NONE"}}},
		"balance settings not an object": {"balance_settings": true},
		"negative with expiring points":  {"balance_settings": map[string]any{"allow_negative": true}},
	} {
		r := e.DoJSON(http.MethodPut, path, bad, s.H)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", name, r.Status, r.Body)
		}
		if again := resttest.MustOK(t, e, http.MethodGet, path, nil, s.H); resttest.MustJSON(again) != resttest.MustJSON(got) {
			t.Errorf("%s changed the definition: %s", name, resttest.MustJSON(again))
		}
	}
	// An update changes what it names; null restores a default.
	upd := resttest.MustOK(t, e, http.MethodPut, path, map[string]any{"points_expiration": nil, "balance_settings": map[string]any{"allow_negative": true}}, s.H)
	if resttest.MustJSON(upd["points_expiration"]) != `{"type":"NO_EXPIRATION"}` || resttest.MustJSON(upd["balance_settings"]) != `{"allow_negative":true}` ||
		resttest.MustJSON(upd["refunds"]) != resttest.MustJSON(got["refunds"]) || resttest.MustJSON(upd["earning_limits"]) != resttest.MustJSON(got["earning_limits"]) {
		t.Errorf("updated %s", resttest.MustJSON(upd))
	}
	// The activities' snapshots are card definitions in the document's shape.
	acts := resttest.MustOK(t, e, http.MethodGet, path+"/activities", nil, s.H)["data"].([]any)
	if len(acts) == 0 {
		t.Fatal("no activities")
	}
	for _, a := range acts {
		snap := a.(map[string]any)["data"].(map[string]any)["card_definition"].(map[string]any)
		if snap["object"] != "card_definition" || snap["points_expiration"] == nil || snap["code_config"].(map[string]any)["prefix"] != "LOY-" {
			t.Errorf("activity snapshot %s", resttest.MustJSON(snap))
		}
	}

	// Cards of the definition carry its prefix and postfix.
	prg := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Silver club", "status": "ACTIVE",
		"card_definitions": []any{map[string]any{"id": def["id"]}}}, s.H)
	m := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+prg["id"].(string)+"/members", map[string]any{"customer_id": s.Cust}, s.H)
	if code, _ := resttest.MemberCardAt(t, m, 0)["code"].(string); !regexp.MustCompile(`^LOY-[0-9]{6}-X$`).MatchString(code) {
		t.Errorf("card code %q, want LOY-######-X", code)
	}
}

// TestV2CardDefinitionExpirationApplies: points an earning rule awards
// without an expiration of its own expire as the card definition says
// (here 2 days rolling); a rule's own expiration still wins.
func TestV2CardDefinitionExpirationApplies(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, map[string]any{"points_expiration": map[string]any{
		"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 2, "unit": "DAY"}}}}, s.H)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	effect := func(value int, exp map[string]any) map[string]any {
		pts := map[string]any{"value": value, "card_definition_id": s.CardDef}
		if exp != nil {
			pts["points_expiration"] = exp
		}
		return map[string]any{"points": pts}
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{effect(7, nil), effect(3, map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "YEAR"}}})}}}}, s.H)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)

	buckets := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/expiring-points", nil, s.H)["data"].([]any)
	if len(buckets) != 2 {
		t.Fatalf("buckets %s, want the 7 points of the definition's expiry and the 3 of the rule's", resttest.MustJSON(buckets))
	}
	soon := buckets[0].(map[string]any)
	day, err := time.Parse(time.DateOnly, soon["expiration_date"].(string))
	today := time.Now().UTC().Truncate(24 * time.Hour)
	if err != nil || soon["points"].(map[string]any)["total"] != 7.0 || day.Before(today.AddDate(0, 0, 1)) || day.After(today.AddDate(0, 0, 3)) {
		t.Errorf("soonest bucket %s, want 7 points expiring in about 2 days", resttest.MustJSON(soon))
	}
	if late := buckets[1].(map[string]any); late["points"].(map[string]any)["total"] != 3.0 {
		t.Errorf("later bucket %s, want the rule's own 3 points", resttest.MustJSON(late))
	}
}
