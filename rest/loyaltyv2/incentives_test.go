package loyaltyv2_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCreateIncentive(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prod, sku := resttest.NewMaterial(t, e, resttest.App(e.Project))
	got := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "10 points", "type": "POINTS", "stock": 5,
		"points": map[string]any{"value": 10, "card_definition_id": s.CardDef},
	}, s.H)
	if id, _ := got["id"].(string); !regexp.MustCompile(`^linc_[a-f0-9]+$`).MatchString(id) {
		t.Errorf("id %q", id)
	}
	if got["object"] != "incentive" || got["status"] != "DRAFT" || got["stock"] != float64(5) || got["type"] != "POINTS" {
		t.Errorf("incentive %v", got)
	}
	if v, ok := got["updated_at"]; !ok || v != nil {
		t.Errorf("updated_at must be null, got %v (present %v)", v, ok)
	}
	if !resttest.TimestampRE.MatchString(got["created_at"].(string)) {
		t.Errorf("created_at %v", got["created_at"])
	}
	if p := got["points"].(map[string]any); p["value"] != float64(10) || p["card_definition_id"] != s.CardDef {
		t.Errorf("points %v", p)
	}
	if _, ok := got["material"]; ok {
		t.Errorf("detail objects of other types are shown: %v", got)
	}
	again := e.DoJSON(http.MethodGet, "/v2/loyalties/incentives/"+got["id"].(string), nil, s.H)
	if again.Status != 200 {
		t.Fatalf("get: %d %s", again.Status, again.Body)
	}
	// Duplicate name.
	body := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "10 points", "type": "MATERIAL", "stock": 1, "status": "ACTIVE",
		"material": productMaterial(prod),
	}, s.H), 409, "duplicate_found")
	if !strings.Contains(body["details"].(string), "10 points") {
		t.Errorf("details %v", body)
	}
	// ACTIVE is kept; activate/draft move the status.
	act := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "Mug", "type": "MATERIAL", "stock": 0, "status": "ACTIVE",
		"material": map[string]any{"sku": map[string]any{"id": sku, "product_id": prod}},
	}, s.H)
	if act["status"] != "ACTIVE" {
		t.Errorf("status %v", act["status"])
	}
	moved := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives/"+act["id"].(string)+"/draft", nil, s.H)
	if moved["status"] != "DRAFT" || moved["updated_at"] == nil {
		t.Errorf("draft: %v", moved)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/incentives/"+act["id"].(string)+"/draft", nil, s.H), 409, "invalid_state_transition")
}

func TestCreateIncentiveConcurrentDuplicates(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prod, _ := resttest.NewMaterial(t, e, resttest.App(e.Project))
	var wg sync.WaitGroup
	statuses := make([]int, 8)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.DoJSON(http.MethodPost, "/v2/loyalties/incentives", map[string]any{
				"name": "Same", "type": "MATERIAL", "stock": 1,
				"material": productMaterial(prod),
			}, s.H)
			statuses[i] = r.Status
		}()
	}
	wg.Wait()
	ok, dup := 0, 0
	for _, st := range statuses {
		switch st {
		case 200:
			ok++
		case 409:
			dup++
		}
	}
	if ok != 1 || dup != len(statuses)-1 {
		t.Errorf("statuses %v: want one 200 and the rest 409", statuses)
	}
}

func TestCreateIncentiveValidation(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	camp := resttest.CreateCampaign(t, e, map[string]any{"name": "Coupons", "voucher": map[string]any{
		"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10}}})["id"].(string)
	pts := map[string]any{"value": 10, "card_definition_id": s.CardDef}
	valid := func(over map[string]any) map[string]any {
		b := map[string]any{"name": "X", "type": "POINTS", "stock": 1, "points": pts}
		for k, v := range over {
			if v == "<absent>" {
				delete(b, k)
				continue
			}
			b[k] = v
		}
		return b
	}
	pp := func(ct string, extra map[string]any) map[string]any {
		m := map[string]any{"calculation_type": ct, "card_definition_id": s.CardDef}
		for k, v := range extra {
			m[k] = v
		}
		return map[string]any{"type": "POINTS_PROPORTIONAL", "points": nil, "points_proportional": m}
	}
	rule := map[string]any{"every": 10, "value": 1}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		detail string
	}{
		{"name missing", valid(map[string]any{"name": "<absent>"}), 400, "name"},
		{"name empty", valid(map[string]any{"name": ""}), 400, ".name"},
		{"name too long", valid(map[string]any{"name": strings.Repeat("n", 201)}), 400, ".name"},
		{"type missing", valid(map[string]any{"type": "<absent>"}), 400, "type"},
		{"type unknown", valid(map[string]any{"type": "CASH"}), 400, ".type"},
		{"stock missing", valid(map[string]any{"stock": "<absent>"}), 400, "stock"},
		{"stock negative", valid(map[string]any{"stock": -1}), 400, ".stock"},
		{"stock too big", valid(map[string]any{"stock": 2147483648}), 400, ".stock"},
		{"stock not integer", valid(map[string]any{"stock": 1.5}), 400, ".stock"},
		{"stock string", valid(map[string]any{"stock": "1"}), 400, ".stock"},
		{"status DELETED", valid(map[string]any{"status": "DELETED"}), 400, ".status"},
		{"status unknown", valid(map[string]any{"status": "LIVE"}), 400, ".status"},
		{"no detail", valid(map[string]any{"points": nil}), 400, ".points"},
		{"two details", valid(map[string]any{"material": map[string]any{"product": map[string]any{"id": "p"}}}), 400, "material"},
		{"detail of other type", valid(map[string]any{"type": "MATERIAL"}), 400, ".points"},
		{"points value missing", valid(map[string]any{"points": map[string]any{"card_definition_id": s.CardDef}}), 400, ".points"},
		{"points card definition missing", valid(map[string]any{"points": map[string]any{"value": 1}}), 400, "card_definition_id"},
		{"points card definition unknown", valid(map[string]any{"points": map[string]any{"value": 1, "card_definition_id": "lcdef_00"}}), 404, "lcdef_00"},
		{"material neither", valid(map[string]any{"type": "MATERIAL", "points": nil, "material": map[string]any{}}), 400, ".material"},
		{"material both", valid(map[string]any{"type": "MATERIAL", "points": nil, "material": map[string]any{
			"product": map[string]any{"id": "p"}, "sku": map[string]any{"id": "s", "product_id": "p"}}}), 400, ".material"},
		{"digital neither", valid(map[string]any{"type": "DIGITAL", "points": nil, "digital": map[string]any{}}), 400, ".digital"},
		{"digital both", valid(map[string]any{"type": "DIGITAL", "points": nil, "digital": map[string]any{
			"discount_coupons": map[string]any{"campaign_id": camp}, "gift_vouchers": map[string]any{"campaign_id": camp, "balance": 1}}}), 400, ".digital"},
		{"digital campaign unknown", valid(map[string]any{"type": "DIGITAL", "points": nil, "digital": map[string]any{
			"discount_coupons": map[string]any{"campaign_id": "camp_00"}}}), 404, "camp_00"},
		{"proportional without calculation_type", valid(map[string]any{"type": "POINTS_PROPORTIONAL", "points": nil,
			"points_proportional": map[string]any{"card_definition_id": s.CardDef}}), 400, "calculation_type"},
		{"proportional unknown calculation_type", valid(pp("PER_VISIT", nil)), 400, "calculation_type"},
		{"proportional card definition unknown", valid(map[string]any{"type": "POINTS_PROPORTIONAL", "points": nil,
			"points_proportional": map[string]any{"calculation_type": "PRE_DISCOUNT_ORDER_AMOUNT", "card_definition_id": "lcdef_00",
				"order": map[string]any{"amount": rule}}}), 404, "lcdef_00"},
		{"proportional rule without every", valid(pp("PRE_DISCOUNT_ORDER_AMOUNT", map[string]any{"order": map[string]any{"amount": map[string]any{"value": 1}}})), 400, "order.amount.every"},
		{"metadata rule without property", valid(pp("ORDER_METADATA_VALUE", map[string]any{"order": map[string]any{"metadata": rule}})), 400, "order.metadata.property"},
		{"amount rule with property", valid(pp("PRE_DISCOUNT_ORDER_AMOUNT", map[string]any{"order": map[string]any{"amount": map[string]any{
			"every": 10, "value": 1, "property": "x"}}})), 400, "order.amount.property"},
		{"item rule without applicable_to", valid(pp("ORDER_ITEMS_QUANTITY", map[string]any{"order_items": map[string]any{"quantity": rule}})), 400, "order_items.quantity.applicable_to"},
		{"material product unknown", valid(map[string]any{"type": "MATERIAL", "points": nil, "material": productMaterial("prod_00")}), 404, "prod_00"},
		{"material sku unknown", valid(map[string]any{"type": "MATERIAL", "points": nil, "material": map[string]any{
			"sku": map[string]any{"id": "sku_00", "product_id": "prod_00"}}}), 404, "sku_00"},
	}
	subs := map[string]string{
		"PRE_DISCOUNT_ORDER_AMOUNT":        "order.amount",
		"POST_DISCOUNT_ORDER_AMOUNT":       "order.total_amount",
		"ORDER_METADATA_VALUE":             "order.metadata",
		"CUSTOMER_METADATA_VALUE":          "customer.metadata",
		"PRE_DISCOUNT_ORDER_ITEMS_AMOUNT":  "order_items.amount",
		"POST_DISCOUNT_ORDER_ITEMS_AMOUNT": "order_items.subtotal_amount",
		"ORDER_ITEMS_QUANTITY":             "order_items.quantity",
	}
	for ct, sub := range subs {
		// The wrong sub-object: order.amount for everything but
		// PRE_DISCOUNT_ORDER_AMOUNT, which gets order.total_amount.
		wrong := map[string]any{"order": map[string]any{"amount": rule}}
		if ct == "PRE_DISCOUNT_ORDER_AMOUNT" {
			wrong = map[string]any{"order": map[string]any{"total_amount": rule}}
		}
		cases = append(cases, struct {
			name   string
			body   map[string]any
			status int
			detail string
		}{"calculation_type " + ct + " without " + sub, valid(pp(ct, wrong)), 400, sub})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.DoJSON(http.MethodPost, "/v2/loyalties/incentives", c.body, s.H)
			key := map[int]string{400: "invalid_payload", 404: "not_found"}[c.status]
			body := resttest.WantErrorKey(t, r, c.status, key)
			if d, _ := body["details"].(string); !strings.Contains(d, c.detail) {
				t.Errorf("details %q do not name %q", d, c.detail)
			}
		})
	}
	// Each calculation type with its sub-object is accepted.
	i := 0
	for ct, sub := range subs {
		parts := strings.Split(sub, ".")
		r := map[string]any{"every": 10, "value": 1}
		switch parts[0] { // property only on the metadata forms, applicable_to only on the item forms
		case "order_items":
			r["applicable_to"] = []any{map[string]any{"product": map[string]any{"id": "prod_0abc"}}}
		default:
			if parts[1] == "metadata" {
				r["property"] = "visits"
			}
		}
		body := valid(pp(ct, map[string]any{parts[0]: map[string]any{parts[1]: r}}))
		body["name"] = fmt.Sprintf("pp %d", i)
		i++
		resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", body, s.H)
	}
	for name, b := range map[string]map[string]any{
		"digital coupons": valid(map[string]any{"type": "DIGITAL", "points": nil, "name": "d1",
			"digital": map[string]any{"discount_coupons": map[string]any{"campaign_id": camp}}}),
		"digital gift": valid(map[string]any{"type": "DIGITAL", "points": nil, "name": "d2",
			"digital": map[string]any{"gift_vouchers": map[string]any{"campaign_id": camp, "balance": 100}}}),
		"max stock": valid(map[string]any{"stock": 2147483647, "name": "big"}),
	} {
		if r := e.DoJSON(http.MethodPost, "/v2/loyalties/incentives", b, s.H); r.Status != 200 {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
}
