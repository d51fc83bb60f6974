package catalog_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestProductCollectionsStaticAndAutoUpdate drives the six routes: a
// STATIC collection of listed items, an AUTO_UPDATE one whose filter is
// evaluated against the catalogue (products and SKUs independently), the
// products of each, update, delete.
func TestProductCollectionsStaticAndAutoUpdate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	shirt := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "shirt", "name": "Shirt", "price": 2500,
		"metadata": map[string]any{"color": "brown"}})
	resttest.CreateProduct(t, e, app, map[string]any{"source_id": "sock", "name": "Sock", "price": 500})
	resttest.CreateProduct(t, e, app, map[string]any{"source_id": "hat", "name": "Hat", "price": 900})
	sku := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/shirt/skus", map[string]any{"source_id": "shirt-s", "sku": "S",
		"price": 800}, app), http.StatusOK)

	static := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "STATIC", "name": "Picks",
		"products": []any{map[string]any{"id": "sock", "object": "product"}, map[string]any{"id": sku["id"], "object": "sku"}}}, app), http.StatusOK)
	sid, _ := static["id"].(string)
	if !strings.HasPrefix(sid, "pc_") || static["object"] != "products_collection" || static["type"] != "STATIC" ||
		len(static["products"].([]any)) != 2 || static["filter"] != nil {
		t.Fatalf("static %v", static)
	}
	items := resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections/"+sid+"/products", nil, app), http.StatusOK)
	data := items["data"].([]any)
	if items["total"] != float64(2) || len(data) != 2 || data[0].(map[string]any)["object"] != "product" ||
		data[1].(map[string]any)["object"] != "sku" || data[1].(map[string]any)["product"].(map[string]any)["id"] != shirt["id"] {
		t.Errorf("static products %v", items)
	}

	auto := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "AUTO_UPDATE", "name": "Cheap",
		"filter": map[string]any{"junction": "AND", "price": map[string]any{"conditions": map[string]any{"$less_than": []any{1000}}}}}, app), http.StatusOK)
	aid := auto["id"].(string)
	// The junction sent as AND answers in the documents' case.
	if auto["filter"] == nil || auto["filter"].(map[string]any)["junction"] != "and" || auto["products"] != nil {
		t.Errorf("auto %v", auto)
	}
	names := func(id, query string) (float64, []string) {
		t.Helper()
		l := resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections/"+id+"/products"+query, nil, app), http.StatusOK)
		var out []string
		for _, it := range l["data"].([]any) {
			m := it.(map[string]any)
			if m["object"] == "sku" {
				out = append(out, "sku:"+m["sku"].(string))
			} else {
				out = append(out, m["name"].(string))
			}
		}
		return l["total"].(float64), out
	}
	// The SKU of the expensive shirt matches on its own price; newest first.
	if total, got := names(aid, ""); total != 3 || strings.Join(got, ",") != "sku:S,Hat,Sock" {
		t.Errorf("auto products %v %v", total, got)
	}
	if total, got := names(aid, "?limit=2&page=2"); total != 3 || strings.Join(got, ",") != "Sock" {
		t.Errorf("page 2 %v %v", total, got)
	}
	// Membership is live: a new cheap product is in.
	resttest.CreateProduct(t, e, app, map[string]any{"name": "Pin", "price": 100})
	if total, _ := names(aid, ""); total != 4 {
		t.Errorf("after a new cheap product: %v", total)
	}
	// metadata and or.
	resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/product-collections/"+aid, map[string]any{"name": "Brown or hats",
		"filter": map[string]any{"junction": "or", "metadata.color": map[string]any{"conditions": map[string]any{"$is": []any{"brown"}}},
			"name": map[string]any{"conditions": map[string]any{"$starts_with": []any{"Ha"}}}}}, app), http.StatusOK)
	if total, got := names(aid, "?order=created_at"); total != 2 || strings.Join(got, ",") != "Shirt,Hat" {
		t.Errorf("brown or hats %v %v", total, got)
	}
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections/"+aid, nil, app), http.StatusOK)
	if got["name"] != "Brown or hats" || got["updated_at"] == nil {
		t.Errorf("updated %v", got)
	}
	// A STATIC collection is renamed only.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v1/product-collections/"+sid, map[string]any{"filter": map[string]any{"junction": "and"}}, app),
		http.StatusBadRequest, "invalid_payload")

	l := resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections", nil, app), http.StatusOK)
	if l["total"] != float64(2) || len(l["data"].([]any)) != 2 || l["data_ref"] != "data" {
		t.Errorf("list %v", l)
	}
	if r := e.Do(http.MethodDelete, "/v1/product-collections/"+sid, nil, app); r.Status != http.StatusNoContent {
		t.Errorf("delete %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/product-collections/"+sid, nil, app), "products_collection", sid)

	// GraphQL calls the same use cases.
	r := e.GraphQL(app, `query($id: ID!) { productCollection(id: $id) { id name type } productCollectionProducts(id: $id) { total data { product { id } sku { id } } } }`,
		map[string]any{"id": aid})
	if len(r.Errors) > 0 || r.Data["productCollectionProducts"].(map[string]any)["total"] != float64(2) {
		t.Errorf("graphql %v %v", r.Data, r.Errors)
	}
}

// TestProductCollectionBadInputWritesNothing: an unknown product, an
// unknown filter field or operator, a bad junction, too many items: the
// error object, no collection.
func TestProductCollectionBadInputWritesNothing(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateProduct(t, e, app, map[string]any{"source_id": "known", "name": "Known"})
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "STATIC", "name": "X",
		"products": []any{map[string]any{"id": "known", "object": "product"}, map[string]any{"id": "prod_nope", "object": "product"}}}, app),
		"product", "prod_nope")
	many := make([]any, 21)
	for i := range many {
		many[i] = map[string]any{"id": "known", "object": "product"}
	}
	bad := []struct {
		body    map[string]any
		details string
	}{
		{map[string]any{"type": "STATIC", "name": "X", "products": many}, "at most 20"},
		{map[string]any{"type": "AUTO_UPDATE", "name": "X", "filter": map[string]any{"junction": "and",
			"colour": map[string]any{"conditions": map[string]any{"$is": []any{"x"}}}}}, "colour is not a filter field"},
		{map[string]any{"type": "AUTO_UPDATE", "name": "X", "filter": map[string]any{"junction": "and",
			"price": map[string]any{"conditions": map[string]any{"$bigger": []any{1}}}}}, "is not an operator"},
		{map[string]any{"type": "AUTO_UPDATE", "name": "X", "filter": map[string]any{"junction": "xor"}}, "junction"},
		{map[string]any{"type": "AUTO_UPDATE", "name": "X", "filter": map[string]any{}}, "must contain valid filter"},
		{map[string]any{"type": "AUTO_UPDATE", "name": "X", "filter": map[string]any{"junction": "and",
			"price": map[string]any{"conditions": map[string]any{"$less_than": []any{"cheap"}}}}}, "one number"},
		{map[string]any{"type": "DYNAMIC", "name": "X"}, "type must be one of"},
		{map[string]any{"type": "STATIC"}, ".name"},
	}
	for _, c := range bad {
		body := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/product-collections", c.body, app), http.StatusBadRequest, "invalid_payload")
		if d, _ := body["details"].(string); !strings.Contains(d, c.details) {
			t.Errorf("details %q, want %q", d, c.details)
		}
	}
	if n := e.DB.Client.ProductCollection.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d collections stored after refused requests", n)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/product-collections/pc_nope/products", nil, app), "products_collection", "pc_nope")
}

// TestProductCollectionTenancy: another project's collections are not
// found, and a collection's filter reads only its project's catalogue.
func TestProductCollectionTenancy(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("other"))
	resttest.CreateProduct(t, e, other, map[string]any{"name": "Theirs", "price": 1})
	resttest.CreateProduct(t, e, app, map[string]any{"name": "Mine", "price": 1})
	pc := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "AUTO_UPDATE", "name": "All",
		"filter": map[string]any{"junction": "and", "price": map[string]any{"conditions": map[string]any{"$has_value": []any{}}}}}, app), http.StatusOK)
	id := pc["id"].(string)
	resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections/"+id, nil, other), http.StatusNotFound)
	resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections/"+id+"/products", nil, other), http.StatusNotFound)
	resttest.Must(t, e.Do(http.MethodDelete, "/v1/product-collections/"+id, nil, other), http.StatusNotFound)
	l := resttest.Must(t, e.Do(http.MethodGet, "/v1/product-collections/"+id+"/products", nil, app), http.StatusOK)
	if l["total"] != float64(1) || l["data"].([]any)[0].(map[string]any)["name"] != "Mine" {
		t.Errorf("products %v", l)
	}
	// A static collection cannot list another project's product.
	theirs := resttest.Must(t, e.Do(http.MethodGet, "/v1/products", nil, other), http.StatusOK)["products"].([]any)[0].(map[string]any)["id"].(string)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "STATIC", "name": "Steal",
		"products": []any{map[string]any{"id": theirs, "object": "product"}}}, app), http.StatusNotFound)
}
