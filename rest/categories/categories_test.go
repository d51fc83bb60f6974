package categories_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

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
	first := resttest.CreateCategory(t, e, app, "First", 1)
	if id, _ := first["id"].(string); !regexp.MustCompile(`^cat_[0-9a-f]{18}$`).MatchString(id) ||
		first["object"] != "category" || first["hierarchy"] != float64(1) || resttest.HasKey(first, "updated_at") ||
		!resttest.TimestampRE.MatchString(first["created_at"].(string)) {
		t.Errorf("created category = %v", first)
	}
	resttest.WaitABit()
	resttest.CreateCategory(t, e, app, "Second", 2)
	resttest.WaitABit()
	resttest.CreateCategory(t, e, app, "Third", 0)

	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "First", "hierarchy": 5}, app),
		http.StatusConflict, "duplicate_found", "First")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"hierarchy": 5}, app),
		http.StatusBadRequest, "invalid_payload", "'name'")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "X"}, app),
		http.StatusBadRequest, "invalid_payload", "'hierarchy'")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "X", "hierarchy": -1}, app),
		http.StatusBadRequest, "invalid_payload", "hierarchy")

	all := resttest.Must(t, e.Do(http.MethodGet, "/v1/categories", nil, app), http.StatusOK)
	if all["object"] != "list" || all["data_ref"] != "data" || all["total"] != float64(3) || all["has_more"] != false ||
		categoryNames(all) != "Third,Second,First" {
		t.Errorf("GET /v1/categories = %v", all)
	}
	page1 := resttest.Must(t, e.Do(http.MethodGet, "/v1/categories?limit=2", nil, app), http.StatusOK)
	last := page1["data"].([]any)[1].(map[string]any)["id"].(string)
	page2 := resttest.Must(t, e.Do(http.MethodGet, "/v1/categories?limit=2&starting_after_id="+last, nil, app), http.StatusOK)
	if categoryNames(page1) != "Third,Second" || page1["has_more"] != true || categoryNames(page2) != "First" ||
		page2["has_more"] != false || page2["total"] != float64(3) {
		t.Errorf("pages = %v / %v", page1, page2)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/categories?limit=101", nil, app), http.StatusBadRequest, "invalid_query_params", "limit")

	path := "/v1/categories/" + first["id"].(string)
	got := resttest.Must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK)
	if got["name"] != "First" || got["id"] != first["id"] || resttest.HasKey(got, "updated_at") {
		t.Errorf("GET category = %v", got)
	}
	up := resttest.Must(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Renamed", "hierarchy": 7}, app), http.StatusOK)
	if up["name"] != "Renamed" || up["hierarchy"] != float64(7) || up["updated_at"] == nil {
		t.Errorf("updated category = %v", up)
	}
	resttest.WantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Second", "hierarchy": 7}, app),
		http.StatusConflict, "duplicate_found", "Second")
	resttest.WantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Only name"}, app),
		http.StatusBadRequest, "invalid_payload", "'hierarchy'")

	// Another project sees none of them.
	other := resttest.App(e.NewProject("other"))
	resttest.WantError(t, e.Do(http.MethodGet, path, nil, other), http.StatusNotFound, "not_found", first["id"].(string))
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/categories", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("other project's list = %v", l)
	}
	resttest.WantError(t, e.Do(http.MethodDelete, path, nil, other), http.StatusNotFound, "not_found", "")

	if r := e.Do(http.MethodDelete, path, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE category: %d %s", r.Status, r.Body)
	}
	body := resttest.Must(t, e.Do(http.MethodGet, path, nil, app), http.StatusNotFound)
	if body["resource_type"] != "category" || body["key"] != "not_found" {
		t.Errorf("after delete = %v", body)
	}
	// Tokens: the categories scope allows the area, another scope does not.
	resttest.Must(t, e.Do(http.MethodGet, "/v1/categories", nil, resttest.Bearer(e.Token(app, "categories"))), http.StatusOK)
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/categories", nil, resttest.Bearer(e.Token(app, "vouchers"))),
		http.StatusForbidden, "forbidden", "categories")
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
	if len(cmp.Errors) > 0 || resttest.MustJSON(cmp.Data) != `{"createCampaign":{"categories":[{"hierarchy":3,"id":"`+id+`","name":"Loyal"}],"category":"Loyal"}}` {
		t.Errorf("createCampaign with a category = %s %+v", resttest.MustJSON(cmp.Data), cmp.Errors)
	}
	list := e.GraphQL(app, `{ categoryList(limit: 10) { total hasMore data { name } } campaignList(input: {expand: ["category"]}) { data { categories { name } } } }`, nil)
	if len(list.Errors) > 0 || resttest.MustJSON(list.Data) != `{"campaignList":{"data":[{"categories":[{"name":"Loyal"}]}]},"categoryList":{"data":[{"name":"Loyal"}],"hasMore":false,"total":1}}` {
		t.Errorf("lists = %s %+v", resttest.MustJSON(list.Data), list.Errors)
	}
	up := e.GraphQL(app, `mutation($id: ID!) { updateCategory(id: $id, input: {name: "Loyalty", hierarchy: 2}) { name hierarchy updatedAt } }`,
		map[string]any{"id": id})
	if len(up.Errors) > 0 || up.Data["updateCategory"].(map[string]any)["name"] != "Loyalty" {
		t.Errorf("updateCategory = %+v", up)
	}
	node := e.GraphQL(app, `query($id: ID!) { node(id: $id) { ... on Category { name } } }`, map[string]any{"id": id})
	if len(node.Errors) > 0 || resttest.MustJSON(node.Data) != `{"node":{"name":"Loyalty"}}` {
		t.Errorf("node(id: cat_…) = %s %+v", resttest.MustJSON(node.Data), node.Errors)
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
