package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2ExamineEarningRules: the preview sums the fixed and the
// order-proportional rules for the card, per rule, writes nothing, and
// refuses a body that breaks the document's trigger/context rules; another
// project's member is 404.
func TestV2ExamineEarningRules(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	fixed := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)["id"].(string)
	prop := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{
		"name": "Per spend", "status": "ACTIVE", "trigger": map[string]any{"event": "customer.order.paid"},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points_proportional": map[string]any{
			"calculation_type": "POST_DISCOUNT_ORDER_AMOUNT", "card_definition_id": s.CardDef,
			"order": map[string]any{"total_amount": map[string]any{"every": 100, "value": 1}}}}}}},
	}, s.H)["id"].(string)
	path := "/v2/loyalties/examine/earning-rules"
	byMember := map[string]any{"type": "member_id", "member_id": s.Member}
	specific := map[string]any{
		"trigger":                 map[string]any{"type": "SPECIFIC", "specific": map[string]any{"event": "customer.order.paid"}},
		"customer_identification": byMember,
		"customer_order_paid":     map[string]any{"order": map[string]any{"amount": "1000", "discount_amount": 200}},
	}
	x := resttest.MustOK(t, e, http.MethodPost, path, specific, s.H)
	if x["event"] != "customer.order.paid" || len(x["earning_rules"].([]any)) != 2 {
		t.Fatalf("examination %s", resttest.MustJSON(x))
	}
	crd := x["memberships"].([]any)[0].(map[string]any)["cards"].([]any)[0].(map[string]any)
	per := map[string]float64{}
	for _, r := range crd["earning_rules"].([]any) {
		r := r.(map[string]any)
		per[r["earning_rule"].(map[string]any)["id"].(string)] = r["points_estimation"].(float64)
	}
	if crd["points_estimation"] != 13.0 || per[fixed] != 5 || per[prop] != 8 {
		t.Errorf("card estimation %s, want 13 = 5 fixed + 8 per (1000 - 200) / 100", resttest.MustJSON(crd))
	}
	all := resttest.MustOK(t, e, http.MethodPost, path, map[string]any{"trigger": map[string]any{"type": "ALL"},
		"customer_identification": map[string]any{"type": "customer_id", "customer_id": s.Cust}}, s.H)
	if all["event"] != nil || all["memberships"].([]any)[0].(map[string]any)["cards"].([]any)[0].(map[string]any)["points_estimation"] != 5.0 {
		t.Errorf("ALL without an order: %s, want 5 (the fixed rule)", resttest.MustJSON(all))
	}
	// ALL has no one event: each rule of the catalog names its own.
	if _, has := all["event"]; has || len(all["earning_rules"].([]any)) == 0 {
		t.Errorf("ALL answered event %v / rules %v", all["event"], all["earning_rules"])
	}
	for _, r := range all["earning_rules"].([]any) {
		if ev := r.(map[string]any)["event"]; ev != "customer.order.paid" {
			t.Errorf("rule %v of ALL names event %v, want its trigger's customer.order.paid", r, ev)
		}
	}
	if b := v2CardBalance(t, e, s); b != 0 {
		t.Errorf("balance %v after previews, want 0", b)
	}
	if n := e.DB.Client.CardTransaction.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d card transactions after previews, want 0", n)
	}

	bad := map[string]map[string]any{
		"no trigger":            {"customer_identification": byMember},
		"ALL with specific":     {"trigger": map[string]any{"type": "ALL", "specific": map[string]any{"event": "customer.order.paid"}}, "customer_identification": byMember},
		"SPECIFIC without ctx":  {"trigger": specific["trigger"], "customer_identification": byMember},
		"other context present": {"trigger": specific["trigger"], "customer_identification": byMember, "customer_order_paid": map[string]any{}, "customer_segment_entered": map[string]any{}},
		"unknown event":         {"trigger": map[string]any{"type": "SPECIFIC", "specific": map[string]any{"event": "order.paid"}}, "customer_identification": byMember},
		"bad amount":            {"trigger": specific["trigger"], "customer_identification": byMember, "customer_order_paid": map[string]any{"order": map[string]any{"amount": "ten"}}},
		"custom event no schema": {"trigger": map[string]any{"type": "SPECIFIC", "specific": map[string]any{"event": "customer.custom_event"}}, "customer_identification": byMember,
			"customer_custom_event": map[string]any{"type": "SPECIFIC", "specific": map[string]any{"custom_event": map[string]any{}}}},
	}
	for name, body := range bad {
		if r := e.DoJSON(http.MethodPost, path, body, s.H); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", name, r.Status, r.Body)
		}
	}
	other := resttest.V2(t, e, e.NewProject("other"))
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, specific, other), http.StatusNotFound, "not_found")
}
