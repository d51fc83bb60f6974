package rest_test

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
	s := newLoyaltySetup(t, e)
	plain := mustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+s.cardDef, nil, s.h)
	if mustJSON(plain["points_expiration"]) != `{"type":"NO_EXPIRATION"}` ||
		mustJSON(plain["earning_limits"]) != `{"global":{"limits":[],"type":"NO_LIMIT"},"transactions":{"limits":[],"type":"NO_LIMIT"}}` ||
		mustJSON(plain["refunds"]) != `{"earned_points":{"methods":[],"type":"NONE"},"spent_points":{"methods":[],"type":"NONE"}}` ||
		mustJSON(plain["balance_settings"]) != `{"allow_negative":false}` {
		t.Errorf("defaults: %s", mustJSON(plain))
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
	def := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", body, s.h)
	got := mustOK(t, e, http.MethodGet, "/v2/loyalties/card-definitions/"+def["id"].(string), nil, s.h)
	if pe := got["points_expiration"].(map[string]any); pe["type"] != "SLIDING_EXPIRATION" ||
		mustJSON(pe["sliding_expiration"].(map[string]any)["custom_activity_types"]) != `[]` ||
		got["earning_limits"].(map[string]any)["transactions"].(map[string]any)["type"] != "LIMITED" ||
		mustJSON(got["spending_limits"].(map[string]any)["transactions"]) != `{"limits":[],"type":"NO_LIMIT"}` ||
		got["refunds"].(map[string]any)["earned_points"].(map[string]any)["type"] != "REFUNDABLE" ||
		mustJSON(got["balance_settings"]) != `{"allow_negative":false}` {
		t.Errorf("stored settings: %s", mustJSON(got))
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
		r := e.DoJSON(http.MethodPut, path, bad, s.h)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", name, r.Status, r.Body)
		}
		if again := mustOK(t, e, http.MethodGet, path, nil, s.h); mustJSON(again) != mustJSON(got) {
			t.Errorf("%s changed the definition: %s", name, mustJSON(again))
		}
	}
	// An update changes what it names; null restores a default.
	upd := mustOK(t, e, http.MethodPut, path, map[string]any{"points_expiration": nil, "balance_settings": map[string]any{"allow_negative": true}}, s.h)
	if mustJSON(upd["points_expiration"]) != `{"type":"NO_EXPIRATION"}` || mustJSON(upd["balance_settings"]) != `{"allow_negative":true}` ||
		mustJSON(upd["refunds"]) != mustJSON(got["refunds"]) || mustJSON(upd["earning_limits"]) != mustJSON(got["earning_limits"]) {
		t.Errorf("updated %s", mustJSON(upd))
	}
	// The activities' snapshots are card definitions in the document's shape.
	acts := mustOK(t, e, http.MethodGet, path+"/activities", nil, s.h)["data"].([]any)
	if len(acts) == 0 {
		t.Fatal("no activities")
	}
	for _, a := range acts {
		snap := a.(map[string]any)["data"].(map[string]any)["card_definition"].(map[string]any)
		if snap["object"] != "card_definition" || snap["points_expiration"] == nil || snap["code_config"].(map[string]any)["prefix"] != "LOY-" {
			t.Errorf("activity snapshot %s", mustJSON(snap))
		}
	}

	// Cards of the definition carry its prefix and postfix.
	prg := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Silver club", "status": "ACTIVE",
		"card_definitions": []any{map[string]any{"id": def["id"]}}}, s.h)
	m := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+prg["id"].(string)+"/members", map[string]any{"customer_id": s.cust}, s.h)
	if code, _ := memberCardAt(t, m, 0)["code"].(string); !regexp.MustCompile(`^LOY-[0-9]{6}-X$`).MatchString(code) {
		t.Errorf("card code %q, want LOY-######-X", code)
	}
}

// TestV2CardDefinitionExpirationApplies: points an earning rule awards
// without an expiration of its own expire as the card definition says
// (here 2 days rolling); a rule's own expiration still wins.
func TestV2CardDefinitionExpirationApplies(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := newLoyaltySetup(t, e)
	mustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.cardDef, map[string]any{"points_expiration": map[string]any{
		"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 2, "unit": "DAY"}}}}, s.h)
	visit := defineEvent(t, e, app, "visit", nil)
	effect := func(value int, exp map[string]any) map[string]any {
		pts := map[string]any{"value": value, "card_definition_id": s.cardDef}
		if exp != nil {
			pts["points_expiration"] = exp
		}
		return map[string]any{"points": pts}
	}
	mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
		"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
		"earnings": []any{map[string]any{"effects": []any{effect(7, nil), effect(3, map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "YEAR"}}})}}}}, s.h)
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)

	buckets := mustOK(t, e, http.MethodGet, s.cardPath()+"/expiring-points", nil, s.h)["data"].([]any)
	if len(buckets) != 2 {
		t.Fatalf("buckets %s, want the 7 points of the definition's expiry and the 3 of the rule's", mustJSON(buckets))
	}
	soon := buckets[0].(map[string]any)
	day, err := time.Parse(time.DateOnly, soon["expiration_date"].(string))
	today := time.Now().UTC().Truncate(24 * time.Hour)
	if err != nil || soon["points"].(map[string]any)["total"] != 7.0 || day.Before(today.AddDate(0, 0, 1)) || day.After(today.AddDate(0, 0, 3)) {
		t.Errorf("soonest bucket %s, want 7 points expiring in about 2 days", mustJSON(soon))
	}
	if late := buckets[1].(map[string]any); late["points"].(map[string]any)["total"] != 3.0 {
		t.Errorf("later bucket %s, want the rule's own 3 points", mustJSON(late))
	}
}
