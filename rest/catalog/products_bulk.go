package catalog

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerProductJobs mounts the catalogue's async actions (202
// {async_action_id}; poll GET /v1/async-actions/{id}).
func registerProductJobs(v1 *gin.RouterGroup, auth gin.HandlerFunc, h productHandlers) {
	v1.POST("/products/bulk/async", auth, h.bulkUpdate)
	v1.POST("/products/metadata/async", auth, h.metadataUpdate)
}

// bulkUpdate serves POST /v1/products/bulk/async: a JSON array of
// products to upsert by source_id (PRODUCTS.BULK_UPDATE).
func (h productHandlers) bulkUpdate(c *gin.Context) {
	var items []*catalog.ProductInput
	if err := httpkit.DecodeBulkBody(c, &items); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	h.scheduled(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().UpdateProductsInBulk(ctx, items)
	})
}

// metadataUpdate serves POST /v1/products/metadata/async: {source_ids,
// metadata} (PRODUCTS.METADATA_UPDATE).
func (h productHandlers) metadataUpdate(c *gin.Context) {
	body, err := httpkit.ReadBody(c, httpkit.MaxBulkBodyBytes)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var in catalog.ProductsMetadataInput
	if err := httpkit.DecodeJSON(body, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	h.scheduled(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().UpdateProductsMetadataInBulk(ctx, in)
	})
}

// scheduled runs a mutation that schedules a job and answers 202 with its ID.
func (h productHandlers) scheduled(c *gin.Context, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	httpkit.Accepted(c, schedule)
}
