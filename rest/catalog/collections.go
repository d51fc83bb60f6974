package catalog

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerProductCollections mounts /v1/product-collections (SDK:
// productCollections.*) on the catalogue's handlers.
func registerProductCollections(v1 *gin.RouterGroup, auth gin.HandlerFunc, h productHandlers) {
	m := h.root.Mutation()
	v1.GET("/product-collections", auth, httpkit.Read(httpkit.WithQuery(listInput, h.root.Query().ProductCollectionList), collectionList))
	v1.POST("/product-collections", auth, httpkit.Write(httpkit.WithBody(m.CreateProductCollection), collectionJSON))
	v1.GET("/product-collections/:collectionId", auth, httpkit.Read(httpkit.ByParam("collectionId", h.root.Query().ProductCollection), collectionJSON))
	v1.PUT("/product-collections/:collectionId", auth, httpkit.Write(httpkit.WithParamAndBody("collectionId", m.UpdateProductCollection), collectionJSON))
	v1.DELETE("/product-collections/:collectionId", auth, httpkit.NoContent(httpkit.ByParam("collectionId", m.DeleteProductCollection))) // 204
	v1.GET("/product-collections/:collectionId/products", auth, h.collectionProducts)
}

// collectionBody is the collection object: filter only for AUTO_UPDATE,
// products only for STATIC (the other key is left out, as the real
// service does); updated_at once it changed.
type collectionBody struct {
	ID        string             `json:"id"`
	Name      string             `json:"name"`
	Type      string             `json:"type"`
	Filter    map[string]any     `json:"filter,omitempty"`
	Products  []map[string]any   `json:"products,omitempty"`
	CreatedAt httpkit.Timestamp  `json:"created_at"`
	UpdatedAt *httpkit.Timestamp `json:"updated_at,omitempty"`
	Object    string             `json:"object"`
}

// collectionList renders a page of collections.
func collectionList(res *catalog.CollectionList) gin.H {
	out := make([]collectionBody, len(res.Data))
	for i, pc := range res.Data {
		out[i] = collectionJSON(pc)
	}
	return gin.H{"object": "list", "data_ref": "data", "data": out, "total": res.Total}
}

func collectionJSON(pc *ent.ProductCollection) collectionBody {
	b := collectionBody{ID: pc.ID, Name: pc.Name, Type: pc.Type.String(), CreatedAt: httpkit.Timestamp(pc.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(pc.UpdatedAt), Object: "products_collection"}
	if pc.Type.String() == "AUTO_UPDATE" {
		b.Filter = pc.Filter
	} else {
		b.Products = pc.Products
		if b.Products == nil {
			b.Products = []map[string]any{}
		}
	}
	return b
}

// collectionProducts serves GET /v1/product-collections/{id}/products:
// products (without SKUs) and SKUs (with their product) together; the
// reference's starting_after is refused (400: pages are page/limit).
func (h productHandlers) collectionProducts(c *gin.Context) {
	in, err := listInput(c)
	if err == nil {
		err = httpkit.NotSupported(c.Request.URL.Query(), "the collection's product list", "starting_after")
	}
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().ProductCollectionProducts(c.Request.Context(), c.Param("collectionId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := make([]any, len(res.Data))
	for i, it := range res.Data {
		if it.Sku == nil {
			out[i] = productJSON(it.Product, nil)
			continue
		}
		b := collectionSkuBody{skuBody: skuJSON(it.Sku)}
		if p := it.Sku.Edges.Product; p != nil {
			pb := productJSON(p, nil)
			b.Product = &skuProductBody{ID: pb.ID, SourceID: pb.SourceID, Name: pb.Name, Price: pb.Price,
				Attributes: pb.Attributes, Metadata: pb.Metadata, Object: "product"}
		}
		out[i] = b
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": out, "total": res.Total})
}

// collectionSkuBody is a SKU of a collection's products: the SKU with
// its product.
type collectionSkuBody struct {
	skuBody
	Product *skuProductBody `json:"product"`
}

// skuProductBody is the product a SKU of a collection embeds.
type skuProductBody struct {
	ID         string         `json:"id"`
	SourceID   *string        `json:"source_id"`
	Name       *string        `json:"name"`
	Price      *int64         `json:"price"`
	Attributes []string       `json:"attributes"`
	Metadata   map[string]any `json:"metadata"`
	Object     string         `json:"object"`
}
