package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1OrderItemsEarningCountsTheMatchingLines: order.paid rules with the
// ORDER_ITEMS_* calculations earn on the paid order's lines that match
// their object — a product (by id), a SKU (by source_id), a collection
// holding the line's product — or on every line without one.
func TestV1OrderItemsEarningCountsTheMatchingLines(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	shirt := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "shirt", "name": "Shirt", "price": 2500})
	resttest.CreateProduct(t, e, app, map[string]any{"source_id": "sock", "name": "Sock", "price": 500})
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/shirt/skus", map[string]any{"source_id": "shirt-s", "sku": "S", "price": 2500}, app), http.StatusOK)
	picks := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "STATIC", "name": "Picks",
		"products": []any{map[string]any{"id": "sock", "object": "product"}}}, app), http.StatusOK)

	id := resttest.NewV1Program(t, e, app, "Shop", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "ivy")["code"].(string)
	items := func(calc, key string, every, points int, object, objectID string) map[string]any {
		p := map[string]any{"every": every, "points": points}
		if object != "" {
			p["object"], p["id"] = object, objectID
		}
		return map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": calc,
			"order_items": map[string]any{key: p}}}
	}
	rules := []any{
		items("ORDER_ITEMS_QUANTITY", "quantity", 1, 1, "product", shirt["id"].(string)),             // 3 shirts (one of them as the SKU): 3
		items("ORDER_ITEMS_AMOUNT", "amount", 1000, 10, "products_collection", picks["id"].(string)), // socks 4×500: 20
		items("ORDER_ITEMS_QUANTITY", "quantity", 1, 100, "sku", "shirt-s"),                          // 1 SKU line: 100
		items("ORDER_ITEMS_AMOUNT", "amount", 100, 1000, "product", "no-such-product"),               // nothing
		items("ORDER_ITEMS_AMOUNT", "amount", 1000, 1, "", ""),                                       // 9,500 in all: 9
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rules, app); r.Status != http.StatusOK {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	resttest.StaticCampaign(t, e, "Coupons", "C1")
	r := e.Do(http.MethodPost, "/v1/vouchers/C1/redemption", []byte(`{"customer": {"source_id": "ivy"},
		"order": {"source_id": "o-items", "status": "PAID", "items": [
			{"source_id": "shirt", "quantity": 2, "price": 2500},
			{"sku_id": "shirt-s", "quantity": 1, "price": 2500},
			{"source_id": "sock", "quantity": 4, "price": 500}]}}`), app)
	if r.Status != http.StatusOK {
		t.Fatalf("redeem: %d %s", r.Status, r.Body)
	}
	card := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, app)["loyalty_card"].(map[string]any)
	if b := card["balance"].(float64); b != 3+20+100+9 {
		t.Errorf("balance %v, want %d", b, 3+20+100+9)
	}
}
