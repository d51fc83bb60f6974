package rest_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func createCategory(t *testing.T, e *resttest.Env, h resttest.Headers, name string, hierarchy int) map[string]any {
	t.Helper()
	return must(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": name, "hierarchy": hierarchy}, h), http.StatusOK)
}

func categoryNames(list map[string]any) string {
	var names []string
	for _, c := range list["data"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	return strings.Join(names, ",")
}

func TestCategoriesCreateReadListUpdateDelete(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	first := createCategory(t, e, app, "First", 1)
	if id, _ := first["id"].(string); !regexp.MustCompile(`^cat_[0-9a-f]{18}$`).MatchString(id) ||
		first["object"] != "category" || first["hierarchy"] != float64(1) || hasKey(first, "updated_at") ||
		!timestampRE.MatchString(first["created_at"].(string)) {
		t.Errorf("created category = %v", first)
	}
	waitABit()
	createCategory(t, e, app, "Second", 2)
	waitABit()
	createCategory(t, e, app, "Third", 0)

	wantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "First", "hierarchy": 5}, app),
		http.StatusConflict, "duplicate_found", "First")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"hierarchy": 5}, app),
		http.StatusBadRequest, "invalid_payload", "'name'")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "X"}, app),
		http.StatusBadRequest, "invalid_payload", "'hierarchy'")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "X", "hierarchy": -1}, app),
		http.StatusBadRequest, "invalid_payload", "hierarchy")

	all := must(t, e.Do(http.MethodGet, "/v1/categories", nil, app), http.StatusOK)
	if all["object"] != "list" || all["data_ref"] != "data" || all["total"] != float64(3) || all["has_more"] != false ||
		categoryNames(all) != "Third,Second,First" {
		t.Errorf("GET /v1/categories = %v", all)
	}
	page1 := must(t, e.Do(http.MethodGet, "/v1/categories?limit=2", nil, app), http.StatusOK)
	last := page1["data"].([]any)[1].(map[string]any)["id"].(string)
	page2 := must(t, e.Do(http.MethodGet, "/v1/categories?limit=2&starting_after_id="+last, nil, app), http.StatusOK)
	if categoryNames(page1) != "Third,Second" || page1["has_more"] != true || categoryNames(page2) != "First" ||
		page2["has_more"] != false || page2["total"] != float64(3) {
		t.Errorf("pages = %v / %v", page1, page2)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/categories?limit=101", nil, app), http.StatusBadRequest, "invalid_query_params", "limit")

	path := "/v1/categories/" + first["id"].(string)
	got := must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK)
	if got["name"] != "First" || got["id"] != first["id"] || hasKey(got, "updated_at") {
		t.Errorf("GET category = %v", got)
	}
	up := must(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Renamed", "hierarchy": 7}, app), http.StatusOK)
	if up["name"] != "Renamed" || up["hierarchy"] != float64(7) || up["updated_at"] == nil {
		t.Errorf("updated category = %v", up)
	}
	wantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Second", "hierarchy": 7}, app),
		http.StatusConflict, "duplicate_found", "Second")
	wantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Only name"}, app),
		http.StatusBadRequest, "invalid_payload", "'hierarchy'")

	// Another project sees none of them.
	other := resttest.App(e.NewProject("other"))
	wantError(t, e.Do(http.MethodGet, path, nil, other), http.StatusNotFound, "not_found", first["id"].(string))
	if l := must(t, e.Do(http.MethodGet, "/v1/categories", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("other project's list = %v", l)
	}
	wantError(t, e.Do(http.MethodDelete, path, nil, other), http.StatusNotFound, "not_found", "")

	if r := e.Do(http.MethodDelete, path, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE category: %d %s", r.Status, r.Body)
	}
	body := must(t, e.Do(http.MethodGet, path, nil, app), http.StatusNotFound)
	if body["resource_type"] != "category" || body["key"] != "not_found" {
		t.Errorf("after delete = %v", body)
	}
	// Tokens: the categories scope allows the area, another scope does not.
	must(t, e.Do(http.MethodGet, "/v1/categories", nil, resttest.Bearer(e.Token(app, "categories"))), http.StatusOK)
	wantError(t, e.Do(http.MethodGet, "/v1/categories", nil, resttest.Bearer(e.Token(app, "vouchers"))),
		http.StatusForbidden, "forbidden", "categories")
}

func TestCampaignCategoryByIDOrName(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	seasonal := createCategory(t, e, app, "Seasonal", 4)
	catID := seasonal["id"].(string)
	voucherProfile := map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}

	byID := createCampaign(t, e, map[string]any{"name": "By id", "type": "STATIC", "category_id": catID, "voucher": voucherProfile})
	cats, _ := byID["categories"].([]any)
	if byID["category"] != "Seasonal" || byID["category_id"] != catID || len(cats) != 1 ||
		cats[0].(map[string]any)["id"] != catID || cats[0].(map[string]any)["hierarchy"] != float64(4) {
		t.Errorf("campaign by category_id = category %v, category_id %v, categories %v", byID["category"], byID["category_id"], byID["categories"])
	}
	// A name is found, or made (ranked after the existing categories).
	byName := createCampaign(t, e, map[string]any{"name": "By name", "category": "Seasonal"})
	if byName["category_id"] != catID {
		t.Errorf("campaign by known name: category_id %v, want %s", byName["category_id"], catID)
	}
	fresh := createCampaign(t, e, map[string]any{"name": "Fresh", "category": "Brand new"})
	freshCats, _ := fresh["categories"].([]any)
	if id, _ := fresh["category_id"].(string); !strings.HasPrefix(id, "cat_") || id == catID || len(freshCats) != 1 ||
		freshCats[0].(map[string]any)["name"] != "Brand new" || freshCats[0].(map[string]any)["hierarchy"] != float64(5) {
		t.Errorf("campaign with a new category name = %v / %v", fresh["category_id"], fresh["categories"])
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Bad", "category_id": "cat_000000000000000000"}, app),
		http.StatusNotFound, "not_found", "cat_000000000000000000")
	other := resttest.App(e.NewProject("other"))
	wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Foreign", "category_id": catID}, other),
		http.StatusNotFound, "not_found", catID)

	// GET shows the categories; a list only with expand=category.
	got := must(t, e.Do(http.MethodGet, "/v1/campaigns/By%20id", nil, app), http.StatusOK)
	if len(got["categories"].([]any)) != 1 {
		t.Errorf("GET campaign categories = %v", got["categories"])
	}
	plain := must(t, e.Do(http.MethodGet, "/v1/campaigns?order=created_at", nil, app), http.StatusOK)
	expanded := must(t, e.Do(http.MethodGet, "/v1/campaigns?order=created_at&expand=category", nil, app), http.StatusOK)
	for i, c := range plain["campaigns"].([]any) {
		if n := len(c.(map[string]any)["categories"].([]any)); n != 0 {
			t.Errorf("list without expand: campaign %d has %d categories", i, n)
		}
		ec := expanded["campaigns"].([]any)[i].(map[string]any)
		if n := len(ec["categories"].([]any)); n != 1 || ec["categories"].([]any)[0].(map[string]any)["id"] != ec["category_id"] {
			t.Errorf("list with expand: %s categories %v", ec["name"], ec["categories"])
		}
	}
	wantError(t, e.Do(http.MethodGet, "/v1/campaigns?expand=owner", nil, app), http.StatusBadRequest, "invalid_query_params", "expand")

	// Vouchers of the campaign carry its category; the list filter finds
	// them by the category's ID or name, also after a rename.
	must(t, addVoucher(t, e, "By id", map[string]any{"code": "CAT-1"}), http.StatusOK)
	for _, q := range []string{catID, "Seasonal"} {
		l := must(t, e.Do(http.MethodGet, "/v1/vouchers?category="+strings.ReplaceAll(q, " ", "%20"), nil, app), http.StatusOK)
		if l["total"] != float64(1) {
			t.Errorf("vouchers?category=%s: total %v", q, l["total"])
		}
	}
	must(t, e.DoJSON(http.MethodPut, "/v1/categories/"+catID, map[string]any{"name": "Winter", "hierarchy": 4}, app), http.StatusOK)
	if got := must(t, e.Do(http.MethodGet, "/v1/campaigns/By%20id", nil, app), http.StatusOK); got["category"] != "Winter" {
		t.Errorf("campaign after the rename: category %v", got["category"])
	}
	if l := must(t, e.Do(http.MethodGet, "/v1/vouchers?category=Winter", nil, app), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("vouchers?category=Winter after the rename: %v", l["total"])
	}

	// PUT moves a campaign to another category, or clears it with "".
	moved := must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/By%20name", map[string]any{"category": "Brand new"}, app), http.StatusOK)
	if moved["category"] != "Brand new" || moved["category_id"] != fresh["category_id"] {
		t.Errorf("moved campaign = %v / %v", moved["category"], moved["category_id"])
	}
	cleared := must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/By%20name", map[string]any{"category_id": ""}, app), http.StatusOK)
	if cleared["category"] != nil || cleared["category_id"] != nil || len(cleared["categories"].([]any)) != 0 {
		t.Errorf("cleared campaign = %v / %v / %v", cleared["category"], cleared["category_id"], cleared["categories"])
	}

	// Deleting a category in use leaves its campaigns and vouchers without one.
	if r := e.Do(http.MethodDelete, "/v1/categories/"+catID, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE category in use: %d %s", r.Status, r.Body)
	}
	after := must(t, e.Do(http.MethodGet, "/v1/campaigns/By%20id", nil, app), http.StatusOK)
	if after["category"] != nil || after["category_id"] != nil || len(after["categories"].([]any)) != 0 {
		t.Errorf("campaign after its category was deleted = %v / %v / %v", after["category"], after["category_id"], after["categories"])
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/CAT-1", nil, app), http.StatusOK)
	if v["category"] != nil || v["category_id"] != nil {
		t.Errorf("voucher after its category was deleted = %v / %v", v["category"], v["category_id"])
	}
}

func TestCategoriesOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	created := e.GraphQL(app, `mutation { createCategory(input: {name: "Loyal", hierarchy: 3}) { id name hierarchy } }`, nil)
	if len(created.Errors) > 0 {
		t.Fatalf("createCategory: %+v", created.Errors)
	}
	id := created.Data["createCategory"].(map[string]any)["id"].(string)
	// The same refusal as REST, with the same key.
	bad := e.GraphQL(app, `mutation { createCategory(input: {hierarchy: 3}) { id } }`, nil)
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("createCategory without a name = %+v", bad.Errors)
	}
	dup := e.GraphQL(app, `mutation { createCategory(input: {name: "Loyal", hierarchy: 1}) { id } }`, nil)
	if len(dup.Errors) != 1 || dup.Errors[0].Extensions["key"] != "duplicate_found" {
		t.Errorf("duplicate createCategory = %+v", dup.Errors)
	}
	cmp := e.GraphQL(app, `mutation($id: String) { createCampaign(input: {name: "G", categoryID: $id}) { category categories { id name hierarchy } } }`,
		map[string]any{"id": id})
	if len(cmp.Errors) > 0 || mustJSON(cmp.Data) != `{"createCampaign":{"categories":[{"hierarchy":3,"id":"`+id+`","name":"Loyal"}],"category":"Loyal"}}` {
		t.Errorf("createCampaign with a category = %s %+v", mustJSON(cmp.Data), cmp.Errors)
	}
	list := e.GraphQL(app, `{ categoryList(limit: 10) { total hasMore data { name } } campaignList(input: {expand: ["category"]}) { data { categories { name } } } }`, nil)
	if len(list.Errors) > 0 || mustJSON(list.Data) != `{"campaignList":{"data":[{"categories":[{"name":"Loyal"}]}]},"categoryList":{"data":[{"name":"Loyal"}],"hasMore":false,"total":1}}` {
		t.Errorf("lists = %s %+v", mustJSON(list.Data), list.Errors)
	}
	up := e.GraphQL(app, `mutation($id: ID!) { updateCategory(id: $id, input: {name: "Loyalty", hierarchy: 2}) { name hierarchy updatedAt } }`,
		map[string]any{"id": id})
	if len(up.Errors) > 0 || up.Data["updateCategory"].(map[string]any)["name"] != "Loyalty" {
		t.Errorf("updateCategory = %+v", up)
	}
	node := e.GraphQL(app, `query($id: ID!) { node(id: $id) { ... on Category { name } } }`, map[string]any{"id": id})
	if len(node.Errors) > 0 || mustJSON(node.Data) != `{"node":{"name":"Loyalty"}}` {
		t.Errorf("node(id: cat_…) = %s %+v", mustJSON(node.Data), node.Errors)
	}
	del := e.GraphQL(app, `mutation($id: ID!) { deleteCategory(id: $id) }`, map[string]any{"id": id})
	if len(del.Errors) > 0 || del.Data["deleteCategory"] != id {
		t.Errorf("deleteCategory = %+v", del)
	}
	gone := e.GraphQL(app, `query($id: ID!) { category(id: $id) { id } }`, map[string]any{"id": id})
	if len(gone.Errors) != 1 || gone.Errors[0].Extensions["key"] != "not_found" {
		t.Errorf("category after delete = %+v", gone.Errors)
	}
}

// hasKey reports whether a response object carries key at all (null
// included): the real service leaves out keys without a value.
func hasKey(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}
