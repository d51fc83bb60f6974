// Package catalog serves the v1 catalogue (/v1/products, /v1/skus,
// /v1/product-collections, the bulk and metadata async jobs and the CSV
// imports of products and SKUs) through the graph's resolvers
// (graph/catalog), with the product, SKU and collection JSON shapes.
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package catalog

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// productHandlers serve /v1/products, /v1/skus (SDK: products.*) and
// /v1/product-collections through the GraphQL resolvers; the SKU routes
// are in skus.go, the collections' in collections.go.
type productHandlers struct{ root *graph.Resolver }

// Register mounts the catalogue's routes on v1, each behind auth (the v1
// keys or a bearer token); root is the router's resolver. A product or
// SKU in a path is its id or its source_id.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	h := productHandlers{root}
	m := root.Mutation()
	// Each product with its SKUs.
	v1.GET("/products", auth, httpkit.Read(httpkit.WithQuery(func(c *gin.Context) (*catalog.ListInput, error) {
		in, err := listInput(c)
		if in != nil {
			in.EmbedSkus = true
		}
		return in, err
	}, root.Query().ProductList), productList))
	// An upsert by id or source_id.
	v1.POST("/products", auth, httpkit.Write(httpkit.WithBody(m.CreateProduct), productAlone))
	v1.GET("/products/:productId", auth, h.get)
	// The sent fields change.
	v1.PUT("/products/:productId", auth, httpkit.Write(httpkit.WithParamAndBody("productId", m.UpdateProduct), productAlone))
	v1.DELETE("/products/:productId", auth, h.delete)
	v1.GET("/products/:productId/skus", auth, httpkit.Read(httpkit.WithParamAndQuery("productId", listInput, root.Query().SkuList),
		func(res *catalog.SkuList) gin.H {
			return gin.H{"object": "list", "data_ref": "skus", "skus": skusJSON(res.Data), "total": res.Total}
		}))
	// An upsert by id or source_id under the product.
	v1.POST("/products/:productId/skus", auth, httpkit.Write(httpkit.WithParamAndBody("productId", m.CreateSku), skuJSON))
	// The sent fields change; other keys are ignored.
	v1.PUT("/products/:productId/skus/:skuId", auth, httpkit.Write(httpkit.WithParamsAndBody("productId", "skuId", m.UpdateSku), skuJSON))
	v1.DELETE("/products/:productId/skus/:skuId", auth, h.deleteSku)
	v1.GET("/skus/:skuId", auth, httpkit.Read(httpkit.ByParam("skuId", root.Query().Sku), skuJSON)) // id or source_id
	registerProductJobs(v1, auth, h)
	registerCatalogImports(v1, auth, h)
	registerProductCollections(v1, auth, h)
}

// productBody is the real service's product object: nullable fields are
// always present; skus (the list form) only where the product is read.
type productBody struct {
	ID         string             `json:"id"`
	SourceID   *string            `json:"source_id"`
	Name       *string            `json:"name"`
	Price      *int64             `json:"price"`
	Attributes []string           `json:"attributes"`
	Metadata   map[string]any     `json:"metadata"`
	ImageURL   *string            `json:"image_url"`
	CreatedAt  httpkit.Timestamp  `json:"created_at"`
	UpdatedAt  *httpkit.Timestamp `json:"updated_at"`
	Object     string             `json:"object"`
	Skus       *skuListBody       `json:"skus,omitempty"`
}

// skuListBody is the SKU list a product object carries.
type skuListBody struct {
	Object  string    `json:"object"`
	DataRef string    `json:"data_ref"`
	Data    []skuBody `json:"data"`
	Total   int       `json:"total"`
}

// productList renders a page of products with their SKUs.
func productList(res *catalog.ProductList) gin.H {
	out := make([]productBody, len(res.Data))
	for i, p := range res.Data {
		out[i] = productJSON(p, res.Skus[p.ID])
	}
	return gin.H{"object": "list", "data_ref": "products", "products": out, "total": res.Total}
}

// productAlone is a written product's JSON (without its SKUs).
func productAlone(p *ent.Product) productBody { return productJSON(p, nil) }

func productJSON(p *ent.Product, skus *catalog.SkuList) productBody {
	out := productBody{ID: p.ID, SourceID: p.SourceID, Name: p.Name, Price: p.Price, Attributes: p.Attributes,
		Metadata: p.Metadata, ImageURL: p.ImageURL, CreatedAt: httpkit.Timestamp(p.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(p.UpdatedAt), Object: "product"}
	if out.Attributes == nil {
		out.Attributes = []string{}
	}
	if out.Metadata == nil {
		out.Metadata = map[string]any{}
	}
	if skus != nil {
		out.Skus = &skuListBody{Object: "list", DataRef: "data", Data: skusJSON(skus.Data), Total: skus.Total}
	}
	return out
}

// listInput reads the catalogue lists' query: limit, page, order,
// start_date, end_date.
func listInput(c *gin.Context) (*catalog.ListInput, error) {
	in := &catalog.ListInput{}
	var err error
	if in.Limit, err = httpkit.QueryInt(c, "limit"); err != nil {
		return nil, err
	}
	if in.Page, err = httpkit.QueryInt(c, "page"); err != nil {
		return nil, err
	}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	if err := httpkit.QueryTimes(c, map[string]**time.Time{"start_date": &in.StartDate, "end_date": &in.EndDate}); err != nil {
		return nil, err
	}
	return in, nil
}

// get serves GET /v1/products/{productId}: the product with its SKUs.
func (h productHandlers) get(c *gin.Context) {
	ctx := c.Request.Context()
	p, err := h.root.Query().Product(ctx, c.Param("productId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	limit, order := catalog.MaxEmbeddedSkus, "created_at"
	skus, err := h.root.Product().Skus(ctx, p, &catalog.ListInput{Limit: &limit, Order: &order})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, productJSON(p, skus))
}

// delete serves DELETE /v1/products/{productId}: 204; the product and its
// SKUs are gone for good (no bin yet, with or without force).
func (h productHandlers) delete(c *gin.Context) {
	force, err := httpkit.ForceParam(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	if _, err := httpkit.InTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteProduct(ctx, c.Param("productId"), force)
	}); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
