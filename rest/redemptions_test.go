package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// discountCode makes a standalone-like discount campaign with one code.
func discountCode(t *testing.T, e *resttest.Env, h resttest.Headers, campaign, code string, discount map[string]any, quantity any) map[string]any {
	t.Helper()
	return resttest.DiscountCode(t, e, h, campaign, code, discount, quantity)
}

// cart is the reference's cart: T-shirt 3000, Pen 2000, Mug 1000.
func cart() map[string]any { return resttest.Cart() }

func num(v any) float64 { f, _ := v.(float64); return f }

func TestStackedValidationAppliesDiscountsInOrder(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Ten percent", "TEN", map[string]any{"type": "PERCENT", "percent_off": 10}, nil)
	discountCode(t, e, app, "Ten off", "TENOFF", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)

	got := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "TEN"}, map[string]any{"object": "voucher", "id": "TENOFF"}},
		"order":       cart(), "customer": map[string]any{"source_id": "ann"},
	}, app), http.StatusOK)
	if got["valid"] != true {
		t.Fatalf("want valid, got %v", got)
	}
	order := got["order"].(map[string]any)
	for k, want := range map[string]float64{"amount": 6000, "discount_amount": 1600, "total_discount_amount": 1600, "total_amount": 4400} {
		if num(order[k]) != want {
			t.Fatalf("order.%s = %v, want %v: %v", k, order[k], want, order)
		}
	}
	rs := got["redeemables"].([]any)
	if len(rs) != 2 || rs[0].(map[string]any)["status"] != "APPLICABLE" {
		t.Fatalf("redeemables: %v", rs)
	}
	if tr, _ := got["tracking_id"].(string); len(tr) < 10 {
		t.Fatalf("tracking_id: %v", got["tracking_id"])
	}
	if sr := got["stacking_rules"].(map[string]any); sr["redeemables_limit"] != 30.0 {
		t.Fatalf("stacking_rules: %v", sr)
	}
	// Validation changes nothing.
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/TEN", nil, app), http.StatusOK)
	if num(v["redemption"].(map[string]any)["redeemed_quantity"]) != 0 {
		t.Fatalf("validation redeemed: %v", v["redemption"])
	}

	// An unknown code makes the request invalid; the rest is skipped.
	got = must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "NOPE"}, map[string]any{"object": "voucher", "id": "TEN"}},
		"order":       cart(),
	}, app), http.StatusOK)
	rs = got["redeemables"].([]any)
	first, second := rs[0].(map[string]any), rs[1].(map[string]any)
	errObj := first["result"].(map[string]any)["error"].(map[string]any)
	if got["valid"] != false || got["order"] != nil || first["status"] != "INAPPLICABLE" || errObj["key"] != "not_found" ||
		errObj["resource_type"] != "voucher" || second["status"] != "SKIPPED" {
		t.Fatalf("unknown code: %s", mustJSON(got))
	}
}

func TestStackedRequestPayloadErrors(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{}}, app),
		http.StatusBadRequest, "invalid_payload", "redeemables")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": []any{map[string]any{"object": "voucher"}}}, app),
		http.StatusBadRequest, "invalid_payload", "'id'")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "A"}, map[string]any{"object": "voucher", "id": "A"}}}, app),
		http.StatusBadRequest, "duplicated_redeemables", "Duplicated")
	many := make([]any, 31)
	for i := range many {
		many[i] = map[string]any{"object": "voucher", "id": string(rune('A' + i))}
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"redeemables": many}, app),
		http.StatusBadRequest, "invalid_payload", "30")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{
		"redeemables": []any{map[string]any{"id": "A"}},
		"order":       map[string]any{"items": []any{map[string]any{"quantity": -1, "price": 10}}}}, app),
		http.StatusBadRequest, "invalid_payload", "quantity")
}

func TestRedeemRollbackAndHistory(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Once", "ONCE", map[string]any{"type": "AMOUNT", "amount_off": 500}, 1)

	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "ONCE"}},
		"order":       map[string]any{"source_id": "order-1", "amount": 2000, "status": "PAID"},
		"customer":    map[string]any{"source_id": "bob"},
		"metadata":    map[string]any{"channel": "web"},
	}, app), http.StatusOK)
	parent := red["parent_redemption"].(map[string]any)
	children := red["redemptions"].([]any)
	child := children[0].(map[string]any)
	if parent["result"] != "SUCCESS" || parent["related_object_type"] != "redemption" || len(children) != 1 ||
		child["redemption"] != parent["id"] || child["voucher"].(map[string]any)["code"] != "ONCE" {
		t.Fatalf("redemption: %s", mustJSON(red))
	}
	if rq := child["voucher"].(map[string]any)["redemption"].(map[string]any); num(rq["redeemed_quantity"]) != 1 {
		t.Fatalf("the redemption shows the voucher as it was before: %v", rq)
	}
	order := red["order"].(map[string]any)
	if num(order["total_amount"]) != 1500 || order["id"] == nil || order["source_id"] != "order-1" ||
		order["redemptions"].(map[string]any)[parent["id"].(string)] == nil {
		t.Fatalf("order: %v", order)
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/ONCE", nil, app), http.StatusOK)
	if num(v["redemption"].(map[string]any)["redeemed_quantity"]) != 1 {
		t.Fatalf("redeemed_quantity: %v", v["redemption"])
	}

	// The quantity is used up: 400 quantity_exceeded, stored as a failure.
	r := e.DoJSON(http.MethodPost, "/v1/vouchers/ONCE/redemption", map[string]any{"customer": map[string]any{"source_id": "bob"}}, app)
	failed := must(t, r, http.StatusBadRequest)
	if failed["key"] != "quantity_exceeded" || failed["resource_type"] != "redemption" {
		t.Fatalf("second redemption: %s", r.Body)
	}
	rf := must(t, e.Do(http.MethodGet, "/v1/redemptions/"+failed["resource_id"].(string), nil, app), http.StatusOK)
	if rf["result"] != "FAILURE" || rf["failure_code"] != "quantity_exceeded" {
		t.Fatalf("failed redemption: %v", rf)
	}

	// The voucher's redemption.url lists both entries.
	hist := must(t, e.Do(http.MethodGet, v["redemption"].(map[string]any)["url"].(string), nil, app), http.StatusOK)
	if num(hist["total"]) != 2 || hist["data_ref"] != "redemption_entries" || num(hist["redeemed_quantity"]) != 1 {
		t.Fatalf("voucher history: %v", hist)
	}

	// A child cannot be rolled back alone; the parent can, once.
	wantError(t, e.Do(http.MethodPost, "/v1/redemptions/"+child["id"].(string)+"/rollback", nil, app),
		http.StatusBadRequest, "invalid_redemption_parent", "parent")
	wantError(t, e.Do(http.MethodPost, "/v1/redemptions/"+parent["id"].(string)+"/rollback", nil, app),
		http.StatusBadRequest, "invalid_redemption", "stacked")
	rb := must(t, e.Do(http.MethodPost, "/v1/redemptions/"+parent["id"].(string)+"/rollbacks?reason=mistake", nil, app), http.StatusOK)
	pr := rb["parent_rollback"].(map[string]any)
	if pr["object"] != "redemption_rollback" || pr["reason"] != "mistake" || len(rb["rollbacks"].([]any)) != 1 ||
		rb["order"].(map[string]any)["status"] != "CANCELED" {
		t.Fatalf("rollback: %s", mustJSON(rb))
	}
	wantError(t, e.Do(http.MethodPost, "/v1/redemptions/"+parent["id"].(string)+"/rollbacks", nil, app),
		http.StatusBadRequest, "already_rolled_back", "already")
	v = must(t, e.Do(http.MethodGet, "/v1/vouchers/ONCE", nil, app), http.StatusOK)
	if num(v["redemption"].(map[string]any)["redeemed_quantity"]) != 0 {
		t.Fatalf("rollback did not give the unit back: %v", v["redemption"])
	}
	got := must(t, e.Do(http.MethodGet, "/v1/redemptions/"+child["id"].(string), nil, app), http.StatusOK)
	if got["status"] != "ROLLED_BACK" {
		t.Fatalf("rolled back child: %v", got)
	}

	list := must(t, e.Do(http.MethodGet, "/v1/redemptions?result=FAILURE", nil, app), http.StatusOK)
	if num(list["total"]) != 1 || list["data_ref"] != "redemptions" {
		t.Fatalf("failures: %v", list)
	}
	list = must(t, e.Do(http.MethodGet, "/v1/redemptions?customer=nobody", nil, app), http.StatusOK)
	if num(list["total"]) != 0 {
		t.Fatalf("unknown customer: %v", list)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/redemptions/r_nope", nil, app), http.StatusNotFound, "not_found", "r_nope")

	cust := must(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, app), http.StatusOK)
	sum := cust["summary"].(map[string]any)["redemptions"].(map[string]any)
	for k, want := range map[string]float64{"total_redeemed": 2, "total_succeeded": 1, "total_failed": 1,
		"total_rolled_back": 1, "total_rollback_succeeded": 1} {
		if num(sum[k]) != want {
			t.Fatalf("summary.redemptions.%s = %v, want %v: %v", k, sum[k], want, sum)
		}
	}
	listedAsRead(t, e, app)
}

func mustJSON(v any) string { return resttest.MustJSON(v) }
