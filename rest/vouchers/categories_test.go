package vouchers_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// voucherCategoryIDs is a voucher's category_id and the ids of its categories.
func voucherCategoryIDs(v map[string]any) (any, []any) {
	var ids []any
	for _, c := range v["categories"].([]any) {
		ids = append(ids, c.(map[string]any)["id"])
	}
	return v["category_id"], ids
}

func TestVoucherOwnCategory(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	food := resttest.CreateCategory(t, e, app, "Food", 2)
	foodID := food["id"].(string)
	standalone := func(code string, extra map[string]any) resttest.Response {
		body := map[string]any{"code": code, "type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}
		for k, v := range extra {
			body[k] = v
		}
		return e.DoJSON(http.MethodPost, "/v1/vouchers", body, app)
	}

	// By ID: the voucher shows the category's name, ID and object.
	own := resttest.Must(t, standalone("OWN1", map[string]any{"category_id": foodID}), http.StatusOK)
	cats := own["categories"].([]any)
	if own["category"] != "Food" || own["category_id"] != foodID || len(cats) != 1 {
		t.Fatalf("created = %v", own)
	}
	if c := cats[0].(map[string]any); c["id"] != foodID || c["name"] != "Food" || c["hierarchy"] != float64(2) || c["object"] != "category" {
		t.Errorf("categories[0] = %v", c)
	}
	// By name: found or created, as for campaigns.
	byName := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/OWN2", map[string]any{"type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}, "category": "Drinks"}, app), http.StatusOK)
	drinksID, _ := byName["category_id"].(string)
	if byName["category"] != "Drinks" || drinksID == "" {
		t.Fatalf("by name = %v", byName)
	}
	if same := resttest.Must(t, standalone("OWN3", map[string]any{"category": "Food"}), http.StatusOK); same["category_id"] != foodID {
		t.Errorf("an existing name made another category: %v", same["category_id"])
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/categories", nil, app), http.StatusOK); l["total"] != float64(2) {
		t.Errorf("categories after create = %v", l)
	}
	// An unknown ID is 404 and stores nothing.
	nf := resttest.WantErrorKey(t, standalone("OWN4", map[string]any{"category_id": "cat_000000000000000000"}), http.StatusNotFound, "not_found")
	if nf["resource_type"] != "category" {
		t.Errorf("404 = %v", nf)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/vouchers/OWN4", nil, app), http.StatusNotFound, "not_found")

	// Update: by ID, by name, "" clears; unknown ID is 404.
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/OWN2", map[string]any{"category_id": foodID}, app), http.StatusOK)
	if id, ids := voucherCategoryIDs(upd); id != foodID || len(ids) != 1 || ids[0] != foodID || upd["category"] != "Food" {
		t.Errorf("update by id = %v", upd)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v1/vouchers/OWN2", map[string]any{"category_id": "cat_000000000000000000"}, app),
		http.StatusNotFound, "not_found")
	upd = resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/OWN2", map[string]any{"category": ""}, app), http.StatusOK)
	if id, ids := voucherCategoryIDs(upd); id != nil || len(ids) != 0 || upd["category"] != nil {
		t.Errorf("cleared = %v", upd)
	}

	// A campaign voucher without its own category shows the campaign's.
	resttest.DiscountCode(t, e, app, "Plain", "CAMP1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Plain", map[string]any{"category_id": drinksID}, app), http.StatusOK)
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/CAMP1", nil, app), http.StatusOK)
	if id, ids := voucherCategoryIDs(got); id != nil || len(ids) != 1 || ids[0] != drinksID {
		t.Errorf("campaign voucher = category_id %v, categories %v", id, ids)
	}
	// The add-vouchers body's category (a name) is the new voucher's own.
	added := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Plain/vouchers", map[string]any{"code": "CAMP2", "category": "Food"}, app), http.StatusOK)
	if id, ids := voucherCategoryIDs(added); id != foodID || len(ids) != 1 || ids[0] != foodID {
		t.Errorf("added with a category = category_id %v, categories %v", id, ids)
	}
	list := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers?limit=10", nil, app), http.StatusOK)
	seen := map[string][]any{}
	for _, v := range list["vouchers"].([]any) {
		_, ids := voucherCategoryIDs(v.(map[string]any))
		seen[v.(map[string]any)["code"].(string)] = ids
	}
	if len(seen["CAMP1"]) != 1 || seen["CAMP1"][0] != drinksID || len(seen["OWN1"]) != 1 || seen["OWN1"][0] != foodID {
		t.Errorf("list categories = %v", seen)
	}

	// GraphQL: the same input and field.
	gq := e.GraphQL(app, `mutation($c: String!) { createVoucher(input: {code: "GQL1", categoryID: $c,
		discount: {type: AMOUNT, amountOff: 100}}) { code category categoryID categories { id name } } }`, map[string]any{"c": foodID})
	if len(gq.Errors) > 0 {
		t.Fatal(gq.Errors)
	}
	if v := gq.Data["createVoucher"].(map[string]any); v["categoryID"] != foodID || len(v["categories"].([]any)) != 1 {
		t.Errorf("createVoucher = %v", v)
	}

	// Deleting the category clears it from its vouchers.
	if r := e.Do(http.MethodDelete, "/v1/categories/"+foodID, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete category: %d %s", r.Status, r.Body)
	}
	got = resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/OWN1", nil, app), http.StatusOK)
	if id, ids := voucherCategoryIDs(got); id != nil || len(ids) != 0 || got["category"] != nil {
		t.Errorf("after delete = %v", got)
	}
}
