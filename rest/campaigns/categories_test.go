package campaigns_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCampaignCategoryByIDOrName(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	seasonal := resttest.CreateCategory(t, e, app, "Seasonal", 4)
	catID := seasonal["id"].(string)
	voucherProfile := map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}

	byID := resttest.CreateCampaign(t, e, map[string]any{"name": "By id", "type": "STATIC", "category_id": catID, "voucher": voucherProfile})
	cats, _ := byID["categories"].([]any)
	if byID["category"] != "Seasonal" || byID["category_id"] != catID || len(cats) != 1 ||
		cats[0].(map[string]any)["id"] != catID || cats[0].(map[string]any)["hierarchy"] != float64(4) {
		t.Errorf("campaign by category_id = category %v, category_id %v, categories %v", byID["category"], byID["category_id"], byID["categories"])
	}
	// A name is found, or made (ranked after the existing categories).
	byName := resttest.CreateCampaign(t, e, map[string]any{"name": "By name", "category": "Seasonal"})
	if byName["category_id"] != catID {
		t.Errorf("campaign by known name: category_id %v, want %s", byName["category_id"], catID)
	}
	fresh := resttest.CreateCampaign(t, e, map[string]any{"name": "Fresh", "category": "Brand new"})
	freshCats, _ := fresh["categories"].([]any)
	if id, _ := fresh["category_id"].(string); !strings.HasPrefix(id, "cat_") || id == catID || len(freshCats) != 1 ||
		freshCats[0].(map[string]any)["name"] != "Brand new" || freshCats[0].(map[string]any)["hierarchy"] != float64(5) {
		t.Errorf("campaign with a new category name = %v / %v", fresh["category_id"], fresh["categories"])
	}
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Bad", "category_id": "cat_000000000000000000"}, app),
		http.StatusNotFound, "not_found", "cat_000000000000000000")
	other := resttest.App(e.NewProject("other"))
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Foreign", "category_id": catID}, other),
		http.StatusNotFound, "not_found", catID)

	// GET shows the categories; a list only with expand=category.
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/By%20id", nil, app), http.StatusOK)
	if len(got["categories"].([]any)) != 1 {
		t.Errorf("GET campaign categories = %v", got["categories"])
	}
	plain := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns?order=created_at", nil, app), http.StatusOK)
	expanded := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns?order=created_at&expand=category", nil, app), http.StatusOK)
	for i, c := range plain["campaigns"].([]any) {
		if n := len(c.(map[string]any)["categories"].([]any)); n != 0 {
			t.Errorf("list without expand: campaign %d has %d categories", i, n)
		}
		ec := expanded["campaigns"].([]any)[i].(map[string]any)
		if n := len(ec["categories"].([]any)); n != 1 || ec["categories"].([]any)[0].(map[string]any)["id"] != ec["category_id"] {
			t.Errorf("list with expand: %s categories %v", ec["name"], ec["categories"])
		}
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/campaigns?expand=owner", nil, app), http.StatusBadRequest, "invalid_query_params", "expand")

	// Vouchers of the campaign carry its category; the list filter finds
	// them by the category's ID or name, also after a rename.
	resttest.Must(t, addVoucher(t, e, "By id", map[string]any{"code": "CAT-1"}), http.StatusOK)
	for _, q := range []string{catID, "Seasonal"} {
		l := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers?category="+strings.ReplaceAll(q, " ", "%20"), nil, app), http.StatusOK)
		if l["total"] != float64(1) {
			t.Errorf("vouchers?category=%s: total %v", q, l["total"])
		}
	}
	resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/categories/"+catID, map[string]any{"name": "Winter", "hierarchy": 4}, app), http.StatusOK)
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/By%20id", nil, app), http.StatusOK); got["category"] != "Winter" {
		t.Errorf("campaign after the rename: category %v", got["category"])
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers?category=Winter", nil, app), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("vouchers?category=Winter after the rename: %v", l["total"])
	}

	// PUT moves a campaign to another category, or clears it with "".
	moved := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/By%20name", map[string]any{"category": "Brand new"}, app), http.StatusOK)
	if moved["category"] != "Brand new" || moved["category_id"] != fresh["category_id"] {
		t.Errorf("moved campaign = %v / %v", moved["category"], moved["category_id"])
	}
	cleared := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/By%20name", map[string]any{"category_id": ""}, app), http.StatusOK)
	if cleared["category"] != nil || cleared["category_id"] != nil || len(cleared["categories"].([]any)) != 0 {
		t.Errorf("cleared campaign = %v / %v / %v", cleared["category"], cleared["category_id"], cleared["categories"])
	}

	// Deleting a category in use leaves its campaigns and vouchers without one.
	if r := e.Do(http.MethodDelete, "/v1/categories/"+catID, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE category in use: %d %s", r.Status, r.Body)
	}
	after := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/By%20id", nil, app), http.StatusOK)
	if after["category"] != nil || after["category_id"] != nil || len(after["categories"].([]any)) != 0 {
		t.Errorf("campaign after its category was deleted = %v / %v / %v", after["category"], after["category_id"], after["categories"])
	}
	v := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/CAT-1", nil, app), http.StatusOK)
	if v["category"] != nil || v["category_id"] != nil {
		t.Errorf("voucher after its category was deleted = %v / %v", v["category"], v["category_id"])
	}
}
