package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

func redeemOne(e *resttest.Env, h resttest.Headers, redeemable map[string]any, extra map[string]any) resttest.Response {
	body := map[string]any{"redeemables": []any{redeemable}}
	for k, v := range extra {
		body[k] = v
	}
	return e.DoJSON(http.MethodPost, "/v1/redemptions", body, h)
}

func TestGiftCardRedemptionSpendsAndRefundsCredits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gifts", "GIFT-A", 5000)

	// Credits above the balance fail and change nothing.
	r := redeemOne(e, app, map[string]any{"id": "GIFT-A", "gift": map[string]any{"credits": 6000}}, map[string]any{"order": map[string]any{"amount": 9000}})
	if body := must(t, r, http.StatusBadRequest); body["key"] != "gift_amount_exceeded" {
		t.Fatalf("too many credits: %s", r.Body)
	}
	// Credits above the order amount: the order takes what it can.
	red := must(t, redeemOne(e, app, map[string]any{"id": "GIFT-A", "gift": map[string]any{"credits": 3000}},
		map[string]any{"order": map[string]any{"amount": 2000}}), http.StatusOK)
	child := red["redemptions"].([]any)[0].(map[string]any)
	if num(red["order"].(map[string]any)["total_amount"]) != 0 || num(child["amount"]) != 2000 ||
		num(child["gift"].(map[string]any)["amount"]) != 2000 {
		t.Fatalf("gift redemption: %s", mustJSON(red))
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-A", nil, app), http.StatusOK)
	if num(v["gift"].(map[string]any)["balance"]) != 3000 {
		t.Fatalf("balance after spending 2000: %v", v["gift"])
	}
	// No credits named: as much of the balance as the order takes.
	must(t, redeemOne(e, app, map[string]any{"id": "GIFT-A"}, map[string]any{"order": map[string]any{"amount": 1000}}), http.StatusOK)
	v = must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-A", nil, app), http.StatusOK)
	if num(v["gift"].(map[string]any)["balance"]) != 2000 {
		t.Fatalf("balance after default credits: %v", v["gift"])
	}

	rb := must(t, e.Do(http.MethodPost, "/v1/redemptions/"+red["parent_redemption"].(map[string]any)["id"].(string)+"/rollbacks", nil, app), http.StatusOK)
	if back := rb["rollbacks"].([]any)[0].(map[string]any); num(back["amount"]) != -2000 {
		t.Fatalf("rollback amount: %v", back)
	}
	v = must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-A", nil, app), http.StatusOK)
	if num(v["gift"].(map[string]any)["balance"]) != 4000 {
		t.Fatalf("balance after refund: %v", v["gift"])
	}
	txs, err := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(v["id"].(string))).
		Order(vouchertransaction.ByID()).All(systemCtx())
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, tx := range txs {
		types = append(types, tx.Type.String())
	}
	if len(txs) != 3 || types[0] != "CREDITS_REDEMPTION" || types[2] != "CREDITS_REFUND" || txs[2].Balance != 4000 || txs[2].Amount != 2000 {
		t.Fatalf("transactions: %v", types)
	}
}

func TestLoyaltyCardRedeemsARewardWithPoints(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Points", "campaign_type": "LOYALTY_PROGRAM", "type": "STATIC",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 100}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Points/vouchers", map[string]any{"code": "CARD-1"}, app), http.StatusOK)
	h2 := v2(t, e, e.Project)
	rew := mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL",
		"material": v2ProductMaterial(t, e)}, h2)["id"].(string)
	mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards/"+rew+"/activate", nil, h2)

	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/CARD-1/validate", map[string]any{}, app), http.StatusBadRequest, "missing_reward", "reward")
	got := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/CARD-1/validate", map[string]any{"reward": map[string]any{"id": rew, "points": 150}}, app), http.StatusOK)
	if got["valid"] != false || got["error"].(map[string]any)["key"] != "loyalty_card_points_exceeded" {
		t.Fatalf("too many points: %v", got)
	}
	red := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/CARD-1/redemption", map[string]any{"reward": map[string]any{"id": rew, "points": 60}}, app), http.StatusOK)
	if num(red["amount"]) != 60 || red["reward"].(map[string]any)["id"] != rew || num(red["loyalty_card"].(map[string]any)["points"]) != 60 {
		t.Fatalf("loyalty redemption: %v", red)
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/CARD-1", nil, app), http.StatusOK)
	if num(v["loyalty_card"].(map[string]any)["balance"]) != 40 || num(v["redemption"].(map[string]any)["redeemed_points"]) != 60 {
		t.Fatalf("card after redemption: %v %v", v["loyalty_card"], v["redemption"])
	}
	must(t, e.Do(http.MethodPost, "/v1/redemptions/"+red["id"].(string)+"/rollback", nil, app), http.StatusOK)
	v = must(t, e.Do(http.MethodGet, "/v1/vouchers/CARD-1", nil, app), http.StatusOK)
	if num(v["loyalty_card"].(map[string]any)["balance"]) != 100 || num(v["redemption"].(map[string]any)["redeemed_points"]) != 0 {
		t.Fatalf("card after rollback: %v %v", v["loyalty_card"], v["redemption"])
	}
}

func TestValidationRulesDecideAndLimitItems(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Big orders", "BIG", map[string]any{"type": "PERCENT", "percent_off": 10, "effect": "APPLY_TO_ITEMS"}, nil)
	createProduct(t, e, app, map[string]any{"source_id": "pen", "name": "Pen"}) // a rule names catalogue products
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "min 50, pens only",
		"rules":         map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{5000}}}},
		"error":         map[string]any{"message": "Spend 50 first"},
		"applicable_to": map[string]any{"included": []any{map[string]any{"object": "product", "id": "pen"}}}}, app), http.StatusOK)
	id := rule["id"].(string)
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "bad",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$foo": []any{1}}}}}, app),
		http.StatusBadRequest, "invalid_payload", "$foo")
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+id+"/assignments", map[string]any{"campaign": "Big orders"}, app), http.StatusOK)
	list := must(t, e.Do(http.MethodGet, "/v1/validation-rules?limit=5", nil, app), http.StatusOK)
	if num(list["total"]) != 1 || list["data"].([]any)[0].(map[string]any)["id"] != id {
		t.Fatalf("rule list: %v", list)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/validation-rules?limit=500", nil, app), http.StatusBadRequest, "invalid_query_params", "limit")

	small := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/BIG/validate", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	errObj := small["error"].(map[string]any)
	if small["valid"] != false || errObj["key"] != "order_rules_violated" || errObj["message"] != "Spend 50 first" {
		t.Fatalf("small order: %v", small)
	}
	big := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/BIG/validate", map[string]any{"order": cart()}, app), http.StatusOK)
	order := big["order"].(map[string]any)
	items := order["items"].([]any)
	if big["valid"] != true || num(order["items_discount_amount"]) != 200 || num(items[1].(map[string]any)["discount_amount"]) != 200 ||
		num(items[0].(map[string]any)["discount_amount"]) != 0 {
		t.Fatalf("only the pen is discounted: %s", mustJSON(big))
	}
	if data := big["applicable_to"].(map[string]any)["data"].([]any); len(data) != 1 {
		t.Fatalf("applicable_to: %v", big["applicable_to"])
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/BIG", nil, app), http.StatusOK)
	if as := v["validation_rules_assignments"].(map[string]any); num(as["total"]) != 1 ||
		as["data"].([]any)[0].(map[string]any)["rule_id"] != id {
		t.Fatalf("validation_rules_assignments: %v", as)
	}
	if e.Do(http.MethodDelete, "/v1/validation-rules/"+id, nil, app).Status != http.StatusNoContent {
		t.Fatal("delete rule")
	}
	again := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/BIG/validate", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	if again["valid"] != true {
		t.Fatalf("the deleted rule still applies: %v", again)
	}
}

func TestVoucherStateFailures(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Dated", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app), http.StatusOK)
	add := func(code string, extra map[string]any) {
		body := map[string]any{"code": code}
		for k, v := range extra {
			body[k] = v
		}
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Dated/vouchers", body, app), http.StatusOK)
	}
	add("FUTURE", map[string]any{"start_date": "2999-01-01T00:00:00Z"})
	add("PAST", map[string]any{"expiration_date": "2001-01-01T00:00:00Z"})
	for code, key := range map[string]string{"FUTURE": "voucher_not_active", "PAST": "voucher_expired"} {
		got := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/validate", nil, app), http.StatusOK)
		if got["valid"] != false || got["error"].(map[string]any)["key"] != key || got["reason"] == "" {
			t.Fatalf("%s: %v", code, got)
		}
		r := e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", nil, app)
		if body := must(t, r, http.StatusBadRequest); body["key"] != key {
			t.Fatalf("%s redemption: %s", code, r.Body)
		}
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/NOPE/validate", nil, app), http.StatusNotFound, "not_found", "NOPE")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/NOPE/redemption", nil, app), http.StatusNotFound, "not_found", "NOPE")
}

func TestSessionLockHoldsTheLastUnit(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Last one", "LAST", map[string]any{"type": "AMOUNT", "amount_off": 100}, 1)
	body := func(session map[string]any) map[string]any {
		b := map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "LAST"}}, "order": map[string]any{"amount": 1000}}
		if session != nil {
			b["session"] = session
		}
		return b
	}
	locked := must(t, e.DoJSON(http.MethodPost, "/v1/validations", body(map[string]any{"type": "LOCK", "ttl": 1, "ttl_unit": "HOURS"}), app), http.StatusOK)
	session := locked["session"].(map[string]any)
	key := session["key"].(string)
	if locked["valid"] != true || session["ttl_unit"] != "HOURS" || len(key) != 36 {
		t.Fatalf("lock: %v", locked)
	}
	other := must(t, e.DoJSON(http.MethodPost, "/v1/validations", body(nil), app), http.StatusOK)
	if other["valid"] != false {
		t.Fatalf("another caller sees the locked unit: %v", other)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/redemptions", body(nil), app), http.StatusBadRequest, "quantity_exceeded", "LAST")
	// The session's own redemption consumes the lock.
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", body(map[string]any{"key": key}), app), http.StatusOK)
	if red["parent_redemption"].(map[string]any)["session"].(map[string]any)["key"] != key {
		t.Fatalf("redemption session: %v", red["parent_redemption"])
	}
	n, err := e.DB.Client.SessionLock.Query().Count(systemCtx())
	if err != nil || n != 0 {
		t.Fatalf("locks left after redemption: %d %v", n, err)
	}
	// Release of a lock that is not there.
	wantError(t, e.Do(http.MethodDelete, "/v1/vouchers/LAST/sessions/"+key, nil, app), http.StatusNotFound, "not_found", key)
}

// TestAnExistingOrderKeepsItsDiscounts: a second redemption for the same
// order starts from what the first one left (previous discounts), and a
// rollback cancels the order.
func TestAnExistingOrderKeepsItsDiscounts(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Five off", "FIVE", map[string]any{"type": "AMOUNT", "amount_off": 500}, nil)
	discountCode(t, e, app, "Ten pct", "PCT10", map[string]any{"type": "PERCENT", "percent_off": 10}, nil)
	must(t, redeemOne(e, app, map[string]any{"id": "FIVE"}, map[string]any{"order": map[string]any{"source_id": "ord-77", "amount": 2000}}), http.StatusOK)
	red := must(t, redeemOne(e, app, map[string]any{"id": "PCT10"}, map[string]any{"order": map[string]any{"source_id": "ord-77"}}), http.StatusOK)
	order := red["order"].(map[string]any)
	for k, want := range map[string]float64{"amount": 2000, "discount_amount": 650, "applied_discount_amount": 150, "total_amount": 1350} {
		if num(order[k]) != want {
			t.Fatalf("order.%s = %v, want %v: %v", k, order[k], want, order)
		}
	}
	if len(order["redemptions"].(map[string]any)) != 2 {
		t.Fatalf("order.redemptions: %v", order["redemptions"])
	}
	wantError(t, redeemOne(e, app, map[string]any{"id": "PCT10"}, map[string]any{"order": map[string]any{"id": "ord_unknown"}}),
		http.StatusNotFound, "not_found", "ord_unknown")
}

// TestUnitDiscountsAddItems: ADD_MANY_ITEMS adds free units to the order,
// and a discount the calculation cannot apply is refused when created.
func TestUnitDiscountsAddItems(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Free stuff", "FREE", map[string]any{"type": "UNIT", "effect": "ADD_MANY_ITEMS", "units": []any{
		map[string]any{"unit_off": 2, "unit_type": "mug", "effect": "ADD_NEW_ITEMS"},
		map[string]any{"unit_off": 1, "unit_type": "prod_5h1pp1ng", "effect": "ADD_MISSING_ITEMS"}}}, nil)
	got := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/FREE/validate", map[string]any{"order": map[string]any{"items": []any{
		map[string]any{"product_id": "mug", "quantity": 1, "price": 1000}}}}, app), http.StatusOK)
	order := got["order"].(map[string]any)
	items := order["items"].([]any)
	mug, ship := items[0].(map[string]any), items[1].(map[string]any)
	if got["valid"] != true || num(order["initial_amount"]) != 1000 || num(order["amount"]) != 3000 || num(order["total_amount"]) != 1000 ||
		num(mug["quantity"]) != 3 || num(mug["discount_quantity"]) != 2 || num(mug["discount_amount"]) != 2000 ||
		ship["product_id"] != "prod_5h1pp1ng" || num(ship["quantity"]) != 1 {
		t.Fatalf("unit discount: %s", mustJSON(got))
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Bad", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 5,
			"effect": "APPLY_TO_ITEMS_PROPORTIONALLY"}}}, app), http.StatusBadRequest, "invalid_payload", "APPLY_TO_ITEMS_PROPORTIONALLY")
}

// TestRuleCustomMessageIsTheErrorMember: a validation rule's own
// error.message is shown where the real service shows it — as the error
// object's error.message beside the system's message (stacked validation,
// failed redemption, GraphQL), and as the legacy validation's error.message
// with the system's text as reason; a rule without one adds no error member.
func TestRuleCustomMessageIsTheErrorMember(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	minimum := func(name string, extra map[string]any) string {
		body := map[string]any{"name": name,
			"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{5000}}}}}
		for k, v := range extra {
			body[k] = v
		}
		return must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", body, app), http.StatusOK)["id"].(string)
	}
	discountCode(t, e, app, "Custom", "CUSTOM", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	discountCode(t, e, app, "Plain", "PLAIN", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+minimum("custom", map[string]any{"error": map[string]any{"message": "Spend 50 first"}})+"/assignments",
		map[string]any{"campaign": "Custom"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+minimum("plain", nil)+"/assignments", map[string]any{"campaign": "Plain"}, app), http.StatusOK)
	const system = "order does not match validation rules"
	small := map[string]any{"amount": 1000}

	for code, custom := range map[string]string{"CUSTOM": "Spend 50 first", "PLAIN": ""} {
		stacked := map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": code}}, "order": small}
		v := must(t, e.DoJSON(http.MethodPost, "/v1/validations", stacked, app), http.StatusOK)
		errObj := v["redeemables"].([]any)[0].(map[string]any)["result"].(map[string]any)["error"].(map[string]any)
		if errObj["key"] != "order_rules_violated" || errObj["message"] != system {
			t.Errorf("%s: stacked validation error = %v", code, errObj)
		}
		r := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", stacked, app), http.StatusBadRequest)
		if r["key"] != "order_rules_violated" || r["message"] != system {
			t.Errorf("%s: failed redemption = %v", code, r)
		}
		legacy := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/validate", map[string]any{"order": small}, app), http.StatusOK)
		wantLegacy := custom
		if custom == "" {
			wantLegacy = system
		}
		if legacy["reason"] != system || legacy["error"].(map[string]any)["message"] != wantLegacy {
			t.Errorf("%s: legacy validation = %v", code, legacy)
		}
		if custom == "" {
			if hasKey(errObj, "error") || hasKey(r, "error") {
				t.Errorf("%s: error member without a custom message: %v / %v", code, errObj, r)
			}
			continue
		}
		if got, _ := errObj["error"].(map[string]any); got["message"] != custom {
			t.Errorf("%s: stacked validation error.error = %v", code, errObj["error"])
		}
		if got, _ := r["error"].(map[string]any); got["message"] != custom {
			t.Errorf("%s: failed redemption error = %v", code, r["error"])
		}
	}
	g := e.GraphQL(app, `mutation { redeemStacked(input: {redeemables: [{object: "voucher", id: "CUSTOM"}], order: {amount: 1000}}) {
		failure { key message error { message } } } }`, nil)
	f, _ := g.Data["redeemStacked"].(map[string]any)["failure"].(map[string]any)
	if len(g.Errors) > 0 || f["message"] != system || f["error"].(map[string]any)["message"] != "Spend 50 first" {
		t.Errorf("GraphQL failure = %+v", g)
	}
}

// TestInvalidValidationListsInapplicableAndSkipped: in the default ALL
// mode a validation that is not valid lists every redeemable in
// redeemables and, as the real service does, the inapplicable one again in
// inapplicable_redeemables (with its result.error) and the one skipped
// because of it in skipped_redeemables; a valid validation has neither.
func TestInvalidValidationListsInapplicableAndSkipped(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Good", "GOOD", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	discountCode(t, e, app, "Off", "OFF", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/OFF", map[string]any{"active": false}, app), http.StatusOK)
	validate := func(codes ...string) map[string]any {
		return must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": redeemables(codes...),
			"order": map[string]any{"amount": 5000}}, app), http.StatusOK)
	}
	ok := validate("GOOD")
	if ok["valid"] != true || hasKey(ok, "inapplicable_redeemables") || hasKey(ok, "skipped_redeemables") {
		t.Errorf("valid validation = %v", ok)
	}
	bad := validate("OFF", "GOOD")
	if bad["valid"] != false || len(bad["redeemables"].([]any)) != 2 {
		t.Fatalf("invalid validation = %v", bad)
	}
	inapplicable, _ := bad["inapplicable_redeemables"].([]any)
	skipped, _ := bad["skipped_redeemables"].([]any)
	if len(inapplicable) != 1 || len(skipped) != 1 {
		t.Fatalf("inapplicable %v, skipped %v; redeemables %v", inapplicable, skipped, bad["redeemables"])
	}
	off := inapplicable[0].(map[string]any)
	if off["id"] != "OFF" || off["status"] != "INAPPLICABLE" ||
		off["result"].(map[string]any)["error"].(map[string]any)["key"] != "voucher_disabled" {
		t.Errorf("inapplicable redeemable = %v", off)
	}
	if good := skipped[0].(map[string]any); good["id"] != "GOOD" || good["status"] != "SKIPPED" {
		t.Errorf("skipped redeemable = %v", good)
	}
	g := e.GraphQL(app, `mutation { validateStacked(input: {redeemables: [{object: "voucher", id: "OFF"}, {object: "voucher", id: "GOOD"}],
		order: {amount: 5000}}) { valid inapplicableRedeemables { id status } skippedRedeemables { id status } } }`, nil)
	if len(g.Errors) > 0 || mustJSON(g.Data["validateStacked"]) !=
		`{"inapplicableRedeemables":[{"id":"OFF","status":"INAPPLICABLE"}],"skippedRedeemables":[{"id":"GOOD","status":"SKIPPED"}],"valid":false}` {
		t.Errorf("GraphQL validation = %+v", g)
	}
}

// TestCreateAssignsValidationRules: a voucher or campaign created with
// validation_rules has them assigned (shown on the object, listed by the
// assignments endpoints, and checked by validations); an unknown rule is a
// 404 that leaves no voucher behind, and a campaign takes at most one rule.
func TestCreateAssignsValidationRules(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "min 50",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{5000}}}}}, app), http.StatusOK)["id"].(string)
	discount := map[string]any{"type": "AMOUNT", "amount_off": 100}
	v := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "RULED", "discount": discount,
		"validation_rules": []string{rule}}, app), http.StatusOK)
	as := v["validation_rules_assignments"].(map[string]any)
	if num(as["total"]) != 1 || as["data"].([]any)[0].(map[string]any)["rule_id"] != rule {
		t.Errorf("created voucher's assignments = %v", as)
	}
	small := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/RULED/validate", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	if small["valid"] != false || small["error"].(map[string]any)["key"] != "order_rules_violated" {
		t.Errorf("the assigned rule is not checked: %v", small)
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/validation-rules-assignments?related_object_id="+v["id"].(string), nil, app), http.StatusOK); num(got["total"]) != 1 {
		t.Errorf("assignments of the voucher = %v", got)
	}

	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "NORULE", "discount": discount,
		"validation_rules": []string{"val_missing"}}, app), http.StatusNotFound, "not_found", "val_missing")
	if r := e.Do(http.MethodGet, "/v1/vouchers/NORULE", nil, app); r.Status != http.StatusNotFound {
		t.Errorf("a voucher whose rule was unknown was kept: %d", r.Status)
	}

	wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Two rules", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": discount}, "validation_rules": []string{rule, rule}}, app),
		http.StatusBadRequest, "invalid_payload", "validation_rules")
	cmp := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "One rule", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": discount}, "validation_rules": []string{rule}}, app), http.StatusOK)
	if got := must(t, e.Do(http.MethodGet, "/v1/validation-rules/"+rule+"/assignments?order=created_at", nil, app), http.StatusOK); num(got["total"]) != 2 ||
		got["data"].([]any)[1].(map[string]any)["related_object_id"] != cmp["id"] {
		t.Errorf("the rule's assignments = %v", got)
	}

	g := e.GraphQL(app, `mutation($r: ID!) { createVoucher(input: {code: "GQL-RULED", discount: {type: AMOUNT, amountOff: 100},
		validationRules: [$r]}) { code } }`, map[string]any{"r": rule})
	if len(g.Errors) > 0 {
		t.Fatalf("GraphQL createVoucher: %v", g.Errors)
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/vouchers/GQL-RULED", nil, app), http.StatusOK); num(got["validation_rules_assignments"].(map[string]any)["total"]) != 1 {
		t.Errorf("GraphQL-created voucher's assignments = %v", got["validation_rules_assignments"])
	}
}
