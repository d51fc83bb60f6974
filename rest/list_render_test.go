package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestListedRedemptionsAndOrdersAsRead: every entry of a page of GET
// /v1/redemptions and GET /v1/orders is the object GET /v1/redemptions/{id}
// and GET /v1/orders/{id} answer — the page reads its customers and the
// vouchers' categories in joined statements, its orders without the
// calculated document, and decodes stored documents (order lines,
// metadata, an order's redemptions) with another decoder than the
// single reads' paths did.
func TestListedRedemptionsAndOrdersAsRead(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gifts", "GIFT-L", 5000)
	discountCode(t, e, app, "Tenner", "TEN-L", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann \u00e9\u2028",
		"metadata": map[string]any{"tier": "gold", "n": 1.5, "big": 12345678901234567, "list": []any{"a", nil, true}}}, app), http.StatusOK)
	order := func(id string) map[string]any {
		return map[string]any{"source_id": id, "amount": 3000, "metadata": map[string]any{"shop": "web <&>", "k": map[string]any{"z": 1, "a": []any{}}},
			"items": []any{map[string]any{"source_id": "sku-1", "quantity": 2, "price": 1000, "metadata": map[string]any{"c": "red"}},
				map[string]any{"source_id": "sku-2", "quantity": 1, "price": 1000}}}
	}
	with := func(id string) map[string]any {
		return map[string]any{"customer": map[string]any{"source_id": "ann"}, "order": order(id), "metadata": map[string]any{"via": "list"}}
	}
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN-L"}, with("ord-1")), http.StatusOK)
	must(t, redeemOne(e, app, map[string]any{"id": "GIFT-L", "gift": map[string]any{"credits": 1500}}, with("ord-2")), http.StatusOK)
	plain := order("ord-3")
	plain["customer"] = map[string]any{"source_id": "ann"}
	plain["status"] = "PAID"
	must(t, e.DoJSON(http.MethodPost, "/v1/orders", plain, app), http.StatusOK)

	for _, c := range []struct{ list, key, one string }{
		{"/v1/redemptions?limit=100", "redemptions", "/v1/redemptions/"},
		{"/v1/redemptions?limit=1&page=2", "redemptions", "/v1/redemptions/"},
		{"/v1/orders?limit=100", "orders", "/v1/orders/"},
		{"/v1/orders?limit=1&page=2", "orders", "/v1/orders/"},
	} {
		list := must(t, e.Do(http.MethodGet, c.list, nil, app), http.StatusOK)
		items, _ := list[c.key].([]any)
		if len(items) == 0 {
			t.Fatalf("%s: no %s: %v", c.list, c.key, list)
		}
		for _, it := range items {
			listed := it.(map[string]any)
			read := must(t, e.Do(http.MethodGet, c.one+listed["id"].(string), nil, app), http.StatusOK)
			if got, want := mustJSON(listed), mustJSON(read); got != want {
				t.Errorf("%s: %s listed\n%s\nread alone\n%s", c.list, listed["id"], got, want)
			}
		}
	}
}

// TestCustomerSummaryCountsPointsApartFromCredits: the customers' summaries
// (one grouped statement per page) sum the points of loyalty redemptions
// with a reward as redeemed_points and leave them out of the gift
// credits, and a rollback takes them back, on the page and alone.
func TestCustomerSummaryCountsPointsApartFromCredits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Points", "campaign_type": "LOYALTY_PROGRAM", "type": "STATIC",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 100}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Points/vouchers", map[string]any{"code": "CARD-S"}, app), http.StatusOK)
	h2 := v2(t, e, e.Project)
	rew := mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL",
		"material": v2ProductMaterial(t, e)}, h2)["id"].(string)
	mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards/"+rew+"/activate", nil, h2)
	red := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/CARD-S/redemption", map[string]any{"reward": map[string]any{"id": rew, "points": 60},
		"customer": map[string]any{"source_id": "pat"}}, app), http.StatusOK)
	summary := func(c map[string]any) string {
		r := c["summary"].(map[string]any)["redemptions"].(map[string]any)
		return mustJSON([]any{r["total_redeemed"], r["total_succeeded"], r["gift"].(map[string]any)["redeemed_amount"],
			r["loyalty_card"].(map[string]any)["redeemed_points"]})
	}
	check := func(want string) {
		t.Helper()
		if got := summary(must(t, e.Do(http.MethodGet, "/v1/customers/pat", nil, app), http.StatusOK)); got != want {
			t.Errorf("pat's summary (redeemed, succeeded, credits, points) = %s, want %s", got, want)
		}
		listedAsRead(t, e, app)
	}
	check("[1,1,0,60]")
	must(t, e.Do(http.MethodPost, "/v1/redemptions/"+red["id"].(string)+"/rollback", nil, app), http.StatusOK)
	check("[1,1,0,0]")
}

// TestListedVouchersShowTheirCategories: the vouchers of the pages of GET
// /v1/publications and GET /v1/redemptions read their campaigns' names
// and category ids joined into their statement and the campaigns'
// categories in one statement after it; each entry's voucher shows the
// campaign and categories GET /v1/vouchers/{code} shows: a code of its own
// category, a code whose campaign got a category after the code was made
// (the campaign's), and a code of a campaign without one.
func TestListedVouchersShowTheirCategories(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Summer", "type": "STATIC", "category": "Sun",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Summer/vouchers", map[string]any{"code": "OWN-CAT"}, app), http.StatusOK)
	discountCode(t, e, app, "Later", "LATER-CAT", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Later", map[string]any{"category": "Snow"}, app), http.StatusOK)
	discountCode(t, e, app, "Plain", "NO-CAT", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	codes := []string{"OWN-CAT", "LATER-CAT", "NO-CAT"}
	for i, code := range codes {
		must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": code,
			"customer": map[string]any{"source_id": "cat-" + code}}, app), http.StatusOK)
		must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": code}, map[string]any{"order": map[string]any{"amount": 1000 + i}}), http.StatusOK)
	}
	shown := func(v map[string]any) string {
		return mustJSON(map[string]any{"campaign": v["campaign"], "categories": v["categories"]})
	}
	want := map[string]string{}
	for _, code := range codes {
		want[code] = shown(must(t, e.Do(http.MethodGet, "/v1/vouchers/"+code, nil, app), http.StatusOK))
	}
	if !strings.Contains(want["LATER-CAT"], "Snow") || !strings.Contains(want["OWN-CAT"], "Sun") || !strings.Contains(want["NO-CAT"], `"categories":[]`) {
		t.Fatalf("the codes' categories as read: %v", want)
	}
	for _, list := range []string{"publications", "redemptions"} {
		page := must(t, e.Do(http.MethodGet, "/v1/"+list+"?limit=100", nil, app), http.StatusOK)
		items, _ := page[list].([]any)
		seen := 0
		for _, it := range items { // (a redemption of redeemables is a parent without a voucher, and its child)
			v, ok := it.(map[string]any)["voucher"].(map[string]any)
			if !ok {
				continue
			}
			seen++
			code, _ := v["code"].(string)
			if got := shown(v); got != want[code] {
				t.Errorf("%s: %s shows %s, read alone %s", list, code, got, want[code])
			}
		}
		if seen != len(codes) {
			t.Errorf("%s: %d entries with a voucher, want %d: %v", list, seen, len(codes), items)
		}
	}
}
