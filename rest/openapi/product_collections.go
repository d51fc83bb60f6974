package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/catalog"
)

// productCollections documents /v1/product-collections
// (rest/catalog/collections.go).
func productCollections(a *API) {
	a.Tag("Product collections", "Named sets of catalogue items: STATIC lists them, AUTO_UPDATE filters the catalogue.")
	coll := a.Schema("ProductsCollection", Object(
		Req("id", String().Desc("pc_…")),
		Req("name", String()),
		Req("type", Enum("STATIC", "AUTO_UPDATE")),
		Opt("filter", FreeObject().Desc("AUTO_UPDATE only: {junction, <field>: {conditions: {$op: [values]}}}.")),
		Opt("products", Array(Object(Req("id", String()), Opt("product_id", String()), Req("object", Enum("product", "sku")))).
			Desc("STATIC only: the listed products and SKUs.")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime().Desc("After an update.")),
		Req("object", Const("products_collection")),
	))
	id := map[string]string{"collectionId": "The collection's id (pc_…)."}
	listQuery := []Param{LimitParam, Query("page", Integer().Range(1, 100), "Page number (1-100, default 1)."),
		OrderParam("created_at", "updated_at", "name")}
	body := Input[catalog.CollectionInput]()
	a.Add("GET /v1/product-collections", Op{Summary: "List product collections", Auth: ServerAPI, Query: listQuery,
		Response: V1List("data", coll, true)})
	a.Add("POST /v1/product-collections", Op{Summary: "Create a product collection", Auth: ServerAPI, Body: body,
		Description: "STATIC: products (at most 20; each must exist, else 404 and nothing is written). AUTO_UPDATE: " +
			"a filter whose fields are id, product_id, source_id, name, price, object, image_url, created_at, updated_at " +
			"and metadata.<key> (another field is 400). At most 100 collections per project.",
		Response: coll, Errors: []int{http.StatusNotFound}})
	a.Add("GET /v1/product-collections/{collectionId}", Op{Summary: "Get a product collection", Auth: ServerAPI,
		PathParams: id, Response: coll})
	a.Add("PUT /v1/product-collections/{collectionId}", Op{Summary: "Update a product collection", Auth: ServerAPI,
		PathParams: id, Body: body, Description: "STATIC: name only. AUTO_UPDATE: name and filter (replaces the stored one).",
		Response: coll})
	a.Add("DELETE /v1/product-collections/{collectionId}", Op{Summary: "Delete a product collection", Auth: ServerAPI,
		PathParams: id, Status: http.StatusNoContent})
	skuWithProduct := a.schemas["Sku"].With(Req("product", Object(Req("id", String()), Req("source_id", String().Null()),
		Req("name", String().Null()), Req("price", Integer().Null()), Req("attributes", Array(String())),
		Req("metadata", Metadata()), Req("object", Const("product")))))
	a.Add("GET /v1/product-collections/{collectionId}/products", Op{Summary: "List a collection's products",
		Auth: ServerAPI, PathParams: id, Query: []Param{LimitParam,
			Query("page", Integer().Range(1, 100), "Page number (1-100, default 1)."), OrderParam("created_at")},
		Description: "Products (without SKUs) and SKUs (with their product) together; total counts both. " +
			"STATIC: the listed items in their order; AUTO_UPDATE: the matches, newest first.",
		Response: V1List("data", OneOf(Ref("ProductWithoutSkus"), skuWithProduct), true)})
}
