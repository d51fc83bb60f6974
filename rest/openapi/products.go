package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/catalog"
)

// products documents the catalogue: /v1/products and /v1/skus
// (rest/catalog).
func products(a *API) {
	a.Tag("Products", "The catalogue: products and their SKUs. A product or SKU in a path is its id or its source_id.")
	sku := a.Schema("Sku", Object(
		Req("id", String().Desc("sku_…")),
		Req("source_id", String().Null().Desc("Unique in the project.")),
		Req("product_id", String()),
		Req("sku", String().Null()),
		Req("price", Integer().Null().Desc("Unit price in cents.")),
		Req("currency", String().Null()),
		Req("attributes", MapOf(String()).Desc("Attribute name to value.")),
		Req("image_url", String().Null()),
		Req("metadata", Metadata()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null().Desc("Null until the first update.")),
		Req("object", Const("sku")),
	))
	product := Object(
		Req("id", String().Desc("prod_…")),
		Req("source_id", String().Null().Desc("Unique in the project.")),
		Req("name", String().Null()),
		Req("price", Integer().Null().Desc("Unit price in cents.")),
		Req("attributes", Array(String()).Desc("The names of the attributes its SKUs give values to.")),
		Req("metadata", Metadata()),
		Req("image_url", String().Null()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null().Desc("Null until the first update.")),
		Req("object", Const("product")),
	)
	productWithoutSkus := a.Schema("ProductWithoutSkus", product)
	productWithSkus := a.Schema("Product", product.With(Req("skus", V1List("data", sku, true).
		Desc(`The product's SKUs, oldest first (at most 100; total counts all of them).`))))

	productID := map[string]string{"productId": "The product's id (prod_…) or source_id."}
	skuID := map[string]string{"productId": "The product's id (prod_…) or source_id.", "skuId": "The SKU's id (sku_…) or source_id."}
	listQuery := func(orders ...string) []Param {
		return []Param{LimitParam,
			Query("page", Integer().Range(1, 100), "Page number (1-100, default 1)."),
			OrderParam(orders...),
			Query("start_date", DateTime(), "Only what was created at or after it."),
			Query("end_date", DateTime(), "Only what was created at or before it.")}
	}
	force := []Param{Query("force", Boolean(), "Accepted; there is no bin yet, so the delete is permanent either way and frees the source_id.")}
	productBody := Input[catalog.ProductInput]()
	skuBody := Input[catalog.SkuInput]()

	a.Add("GET /v1/products", Op{Summary: "List products", Auth: ServerAPI,
		Description: "Newest first by default; each product carries its SKUs.",
		Query:       listQuery("created_at", "updated_at", "name", "source_id"),
		Response:    V1List("products", productWithSkus, true)})
	a.Add("POST /v1/products", Op{Summary: "Create a product", Auth: ServerAPI, Body: productBody,
		Description: "An upsert: an existing id (404 when unknown) or source_id gets the sent fields; otherwise a new product.",
		Response:    productWithoutSkus, Errors: []int{http.StatusNotFound}})
	a.Add("GET /v1/products/{productId}", Op{Summary: "Get a product", Auth: ServerAPI, PathParams: productID,
		Response: productWithSkus})
	a.Add("PUT /v1/products/{productId}", Op{Summary: "Update a product", Auth: ServerAPI, PathParams: productID,
		Description: "Changes the sent fields; id and source_id cannot be changed.",
		Body:        productBody, Response: productWithoutSkus})
	a.Add("DELETE /v1/products/{productId}", Op{Summary: "Delete a product", Auth: ServerAPI, PathParams: productID,
		Description: "Deletes the product and its SKUs permanently.", Query: force, Status: http.StatusNoContent})
	a.Add("GET /v1/skus/{skuId}", Op{Summary: "Get a SKU", Auth: ServerAPI,
		PathParams: map[string]string{"skuId": "The SKU's id (sku_…) or source_id."}, Response: sku})
	a.Add("GET /v1/products/{productId}/skus", Op{Summary: "List a product's SKUs", Auth: ServerAPI,
		PathParams: productID, Query: listQuery("created_at", "updated_at", "sku", "source_id"),
		Response: V1List("skus", sku, true)})
	a.Add("POST /v1/products/{productId}/skus", Op{Summary: "Create a SKU", Auth: ServerAPI, PathParams: productID,
		Description: "An upsert under the product: an existing id (of this product) or source_id gets the sent fields. " +
			"A source_id of another product's SKU is 409.",
		Body: skuBody, Response: sku, Errors: []int{http.StatusConflict}})
	a.Add("PUT /v1/products/{productId}/skus/{skuId}", Op{Summary: "Update a SKU", Auth: ServerAPI, PathParams: skuID,
		Description: "Changes the sent fields; id and source_id cannot be changed, other keys are ignored.",
		Body:        skuBody, Response: sku})
	a.Add("DELETE /v1/products/{productId}/skus/{skuId}", Op{Summary: "Delete a SKU", Auth: ServerAPI, PathParams: skuID,
		Description: "Deletes the SKU permanently.", Query: force, Status: http.StatusNoContent})
	a.Add("POST /v1/products/bulk/async", Op{Summary: "Update products in bulk", Auth: ServerAPI,
		Description: "Upserts each product by source_id in an async action (PRODUCTS.BULK_UPDATE); an unknown " +
			"source_id is created. An empty body or array schedules a job with nothing to do. Up to 10 MB.",
		Body:   Array(Input[catalog.ProductInput]("source_id").Without("id")),
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
	a.Add("POST /v1/products/metadata/async", Op{Summary: "Update products' metadata in bulk", Auth: ServerAPI,
		Description: "Merges metadata into every listed product in an async action (PRODUCTS.METADATA_UPDATE); " +
			"an unknown source_id becomes a product with that metadata. Up to 10 MB.",
		Body:   Input[catalog.ProductsMetadataInput](),
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
	csvForm := Object(Req("file", String().Desc("The CSV file (multipart upload), at most 10 MB.")))
	a.Add("POST /v1/products/importCSV", Op{Summary: "Import products using CSV", Auth: ServerAPI,
		Description: "An async action (PRODUCTS.IMPORT_CSV). Header row: name (required), source_id, price (cents), " +
			"attributes (a comma-separated list), image_url; any other column is a metadata key. A known source_id is only renamed.",
		Form: csvForm, FormType: "multipart/form-data", Response: Ref("AsyncActionStarted"),
		Errors: []int{http.StatusRequestEntityTooLarge}})
	a.Add("POST /v1/skus/importCSV", Op{Summary: "Import SKUs using CSV", Auth: ServerAPI,
		Description: "An async action (SKUS.IMPORT_CSV). Header row: source_id and product_id (id or source_id) required, " +
			"sku, price (cents), image_url, attributes (a JSON object); any other column is a metadata key. " +
			"An existing SKU gets the row's sku and price.",
		Form: csvForm, FormType: "multipart/form-data", Response: Ref("AsyncActionStarted"),
		Errors: []int{http.StatusRequestEntityTooLarge}})
}
