package catalog_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// The catalogue over GraphQL: the same use cases as REST, and each sees
// what the other made.
func TestGraphQLProductsAndSkus(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	gql := func(query string, vars map[string]any) map[string]any {
		t.Helper()
		r := e.GraphQL(app, query, vars)
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", query, r.Errors)
		}
		return r.Data
	}
	created := gql(`mutation { createProduct(input: {sourceID: "lamp", name: "Lamp", price: 4900, attributes: ["color"], metadata: {a: 1}}) {
		id sourceID name price attributes metadata updatedAt } }`, nil)["createProduct"].(map[string]any)
	id, _ := created["id"].(string)
	if !productIDRE.MatchString(id) || created["price"] != float64(4900) || created["updatedAt"] != nil {
		t.Errorf("createProduct = %v", created)
	}
	again := gql(`mutation { createProduct(input: {sourceID: "lamp", price: 5200}) { id name price } }`, nil)["createProduct"].(map[string]any)
	if again["id"] != id || again["name"] != "Lamp" || again["price"] != float64(5200) {
		t.Errorf("upsert = %v", again)
	}
	sku := gql(`mutation { createSku(product: "lamp", input: {sourceID: "lamp-red", sku: "Red", currency: "EUR", attributes: {color: "red"}}) {
		id productID attributes product { id } } }`, nil)["createSku"].(map[string]any)
	if !skuIDRE.MatchString(sku["id"].(string)) || sku["productID"] != id || sku["attributes"].(map[string]any)["color"] != "red" ||
		sku["product"].(map[string]any)["id"] != id {
		t.Errorf("createSku = %v", sku)
	}
	if r := e.GraphQL(app, `mutation { createSku(product: "lamp", input: {attributes: {color: 1}}) { id } }`, nil); len(r.Errors) != 1 ||
		r.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("a non-string attribute: %+v", r.Errors)
	}
	upd := gql(`mutation($id: ID!) { updateSku(product: "lamp", id: $id, input: {price: 100}) { price sku } }`,
		map[string]any{"id": sku["id"]})["updateSku"].(map[string]any)
	if upd["price"] != float64(100) || upd["sku"] != "Red" {
		t.Errorf("updateSku = %v", upd)
	}

	read := gql(`{ product(id: "lamp") { id skus { total data { id } } }
		productList(input: {limit: 5}) { total data { id } }
		sku(id: "lamp-red") { id }
		skuList(product: "lamp") { total }
		products(first: 5) { totalCount }
		skus(first: 5) { totalCount } }`, nil)
	if p := read["product"].(map[string]any); p["id"] != id || p["skus"].(map[string]any)["total"] != float64(1) ||
		read["productList"].(map[string]any)["total"] != float64(1) || read["sku"].(map[string]any)["id"] != sku["id"] ||
		read["skuList"].(map[string]any)["total"] != float64(1) || read["products"].(map[string]any)["totalCount"] != float64(1) ||
		read["skus"].(map[string]any)["totalCount"] != float64(1) {
		t.Errorf("reads = %v", read)
	}
	// node(id:) resolves the catalogue's ids by prefix.
	nodes := gql(`query($p: ID!, $s: ID!) { p: node(id: $p) { id ... on Product { name } } s: node(id: $s) { id ... on Sku { sku } } }`,
		map[string]any{"p": id, "s": sku["id"]})
	if nodes["p"].(map[string]any)["name"] != "Lamp" || nodes["s"].(map[string]any)["sku"] != "Red" {
		t.Errorf("node = %v", nodes)
	}
	// REST sees the product GraphQL made.
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/lamp", nil, app), http.StatusOK); got["id"] != id || got["price"] != float64(5200) {
		t.Errorf("REST GET = %v", got)
	}
	// Errors are the service's: 404 with the sent reference, 400 for a bad price.
	if r := e.GraphQL(app, `{ product(id: "nope") { id } }`, nil); len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "not_found" {
		t.Errorf("unknown product: %+v", r.Errors)
	}
	if r := e.GraphQL(app, `mutation { updateProduct(id: "lamp", input: {price: -1}) { id } }`, nil); len(r.Errors) != 1 ||
		r.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("negative price: %+v", r.Errors)
	}
	if del := gql(`mutation { deleteSku(product: "lamp", id: "lamp-red") deleteProduct(id: "lamp", force: true) }`, nil); del["deleteProduct"] != id {
		t.Errorf("deletes = %v", del)
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/products/"+id, nil, app), http.StatusNotFound)
}
