package catalog

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// skuBody is the real service's SKU object: nullable fields are always
// present; the parent product is not embedded.
type skuBody struct {
	ID         string             `json:"id"`
	SourceID   *string            `json:"source_id"`
	ProductID  string             `json:"product_id"`
	Sku        *string            `json:"sku"`
	Price      *int64             `json:"price"`
	Currency   *string            `json:"currency"`
	Attributes map[string]string  `json:"attributes"`
	ImageURL   *string            `json:"image_url"`
	Metadata   map[string]any     `json:"metadata"`
	CreatedAt  httpkit.Timestamp  `json:"created_at"`
	UpdatedAt  *httpkit.Timestamp `json:"updated_at"`
	Object     string             `json:"object"`
}

func skuJSON(s *ent.Sku) skuBody {
	out := skuBody{ID: s.ID, SourceID: s.SourceID, ProductID: s.ProductID, Sku: s.Sku, Price: s.Price,
		Currency: s.Currency, Attributes: s.Attributes, ImageURL: s.ImageURL, Metadata: s.Metadata,
		CreatedAt: httpkit.Timestamp(s.CreatedAt), UpdatedAt: httpkit.OptionalTime(s.UpdatedAt), Object: "sku"}
	if out.Attributes == nil {
		out.Attributes = map[string]string{}
	}
	if out.Metadata == nil {
		out.Metadata = map[string]any{}
	}
	return out
}

func skusJSON(skus []*ent.Sku) []skuBody {
	out := make([]skuBody, len(skus))
	for i, s := range skus {
		out[i] = skuJSON(s)
	}
	return out
}

// deleteSku serves DELETE /v1/products/{productId}/skus/{skuId}: 204.
func (h productHandlers) deleteSku(c *gin.Context) {
	force, err := httpkit.ForceParam(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	if _, err := httpkit.InTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteSku(ctx, c.Param("productId"), c.Param("skuId"), force)
	}); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
