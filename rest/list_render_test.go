package rest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/rest"
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

// rawGet answers GET path's body without the OpenAPI check (an entry of
// a deleted code or campaign is not in the document, whichever path reads
// it); anything but 200 fails the test.
func rawGet(t *testing.T, e *resttest.Env, h resttest.Headers, path string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.Server.URL+path, nil)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}

// TestListedRedemptionsAsLoadedByEnt: a REST page of the redemption
// history is one hand-built statement (redemption.RESTPageInOneStatement);
// every page answers the bytes ent's loading of the same entities answers:
// entries with and without customers, metadata and orders, gift and
// discount codes, codes of one campaign with and without a quantity,
// rollbacks, failed redemptions, codes and campaigns deleted after,
// filters, orders and deep pages.
func TestListedRedemptionsAsLoadedByEnt(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gifts", "GIFT-A", 5000)
	discountCode(t, e, app, "Tenner", "TEN-A", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	discountCode(t, e, app, "Once", "ONCE-A", map[string]any{"type": "PERCENT", "percent_off": 5}, 1)
	discountCode(t, e, app, "Doomed", "DOOM-A", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	discountCode(t, e, app, "Kept", "DEL-A", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Tenner", map[string]any{"category": "Snow"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann \u00e9\u2028",
		"email": "ann@example.com", "metadata": map[string]any{"tier": "gold", "big": 12345678901234567}}, app), http.StatusOK)
	order := map[string]any{"source_id": "o-1", "amount": 3000, "metadata": map[string]any{"shop": "web <&>"},
		"items": []any{map[string]any{"source_id": "sku-1", "quantity": 2, "price": 1000, "metadata": map[string]any{"c": "red"}}}}
	withAnn := map[string]any{"customer": map[string]any{"source_id": "ann"}, "order": order, "metadata": map[string]any{"via": "list"}}
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN-A"}, withAnn), http.StatusOK)
	// A code of the same campaign (the same discount document) with a
	// quantity TEN-A lacks: the page decodes their documents once and each
	// code's other columns for itself.
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Tenner/vouchers", map[string]any{"code": "TEN-Q",
		"redemption": map[string]any{"quantity": 5}}, app), http.StatusOK)
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN-Q"}, withAnn), http.StatusOK)
	gift := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-A/redemption", map[string]any{"gift": map[string]any{"credits": 1500},
		"customer": map[string]any{"source_id": "ann"}, "metadata": map[string]any{"via": "list"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+gift["id"].(string)+"/rollback", map[string]any{"reason": "r"}, app), http.StatusOK)
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "ONCE-A"}, map[string]any{"order": map[string]any{"amount": 500}}), http.StatusOK)
	if r := redeemOne(e, app, map[string]any{"object": "voucher", "id": "ONCE-A"}, withAnn); r.Status != http.StatusBadRequest {
		t.Fatalf("redeeming a used code: %d %s", r.Status, r.Body)
	}
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "DOOM-A"}, withAnn), http.StatusOK)
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "DEL-A"}, nil), http.StatusOK)
	deleteCodeAndCampaign(t, e, app, "DEL-A", "Doomed")
	tricky := map[string]any{"source_id": "o-\"2\"\t\\", "amount": 1234, "metadata": map[string]any{"u": "é € 😀 \u2028", "html": "<&> \"q\" , : {x}",
		"n": 1.5, "big": 12345678901234567, "neg": -3, "deep": map[string]any{"b": []any{1, "two", nil, true, map[string]any{}}, "a": "  spaced  "}}}
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN-A"}, map[string]any{"order": tricky,
		"customer": map[string]any{"source_id": "ann"}}), http.StatusOK)
	other := resttest.App(e.NewProject("other"))
	discountCode(t, e, other, "Tenner", "TEN-O", map[string]any{"type": "AMOUNT", "amount_off": 1}, nil)
	must(t, redeemOne(e, other, map[string]any{"object": "voucher", "id": "TEN-O"}, map[string]any{"order": order}), http.StatusOK)

	// Each page as one statement, written by redemptionListBody, against
	// ent's loading encoded by the codec (gin.H).
	paths := []string{"/v1/vouchers/TEN-A/redemption", "/v1/vouchers/GIFT-A/redemption?limit=1&page=2", "/v1/vouchers/ONCE-A/redemption"}
	for _, q := range []string{"limit=100", "", "limit=2&page=2", "limit=1&page=5", "order=customer_id", "order=-voucher_code&limit=3&page=2",
		"order=tracking_id", "campaign=Tenner", "customer=ann", "result=FAILURE", "result=SUCCESS&limit=2&page=2", "campaign=Nope",
		"order=created_at&limit=2&page=3", "order=id&limit=2&page=3", "order=-id&limit=3&page=2", "customer=ann&limit=1&page=2",
		"limit=5&page=3", "order=created_at&limit=5&page=4",
		// filters[…] go into the same rows' sub-select (and its deferred page)
		"filters[campaign_name][conditions][$is]=Tenner&limit=2&page=2", "filters[result][conditions][$is]=FAILURE",
		"filters[voucher_code][conditions][$starts_with]=TEN&filters[object][conditions][$is]=redemption_rollback&filters[junction]=or&order=-voucher_code&limit=2&page=2",
		"filters[customer_id][conditions][$is_unknown]=&order=created_at&limit=1&page=2"} {
		paths = append(paths, "/v1/redemptions?"+q)
	}
	for _, p := range paths {
		fast := rawGet(t, e, app, p)
		redemption.RESTPageInOneStatement = false
		rest.SetRedemptionListSpliced(false)
		loaded := rawGet(t, e, app, p)
		redemption.RESTPageInOneStatement = true
		rest.SetRedemptionListSpliced(true)
		if fast != loaded {
			t.Errorf("%s: one statement answered\n%s\nent's loading\n%s", p, fast, loaded)
		}
	}
	var all struct {
		Redemptions []struct{ Result, Object string }
		Total       int
	}
	if err := json.Unmarshal([]byte(rawGet(t, e, app, "/v1/redemptions?limit=100")), &all); err != nil || all.Total != 14 || len(all.Redemptions) != 14 {
		t.Errorf("GET /v1/redemptions: %+v, %v", all, err)
	}
}

// deleteCodeAndCampaign deletes a code and a campaign (a job, waited for).
func deleteCodeAndCampaign(t *testing.T, e *resttest.Env, app resttest.Headers, code, campaign string) {
	t.Helper()
	if r := e.Do(http.MethodDelete, "/v1/vouchers/"+code+"?force=true", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE %s: %d %s", code, r.Status, r.Body)
	}
	job, _ := must(t, e.Do(http.MethodDelete, "/v1/campaigns/"+campaign+"?force=true", nil, app), http.StatusAccepted)["async_action_id"].(string)
	if done := e.WaitForJob(app, job); done["status"] != "DONE" {
		t.Fatalf("deleting %s: %v", campaign, done)
	}
}
