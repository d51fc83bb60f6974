package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	exportpkg "github.com/promoengine/promoengine/graph/export"
)

// The generic exports: POST /v1/exports (every documented
// exported_object; graph/export/create.go), GET /v1/exports and DELETE
// /v1/exports/{exportId}.

// registerGenericExports mounts the routes.
func registerGenericExports(v1 *gin.RouterGroup, auth gin.HandlerFunc, h exportHandlers) {
	v1.POST("/exports", auth, h.create)
	v1.GET("/exports", auth, h.list)
	v1.DELETE("/exports/:id", auth, h.delete)
}

// create serves POST /v1/exports.
func (h exportHandlers) create(c *gin.Context) {
	var in exportpkg.ExportInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	exp, err := inTx(c, func(ctx context.Context) (*ent.Export, error) {
		return h.vouchers.root.Mutation().CreateExport(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.exportJSON(c, exp))
}

// list serves GET /v1/exports?limit&page&order.
func (h exportHandlers) list(c *gin.Context) {
	limit, page, err := limitAndPage(c)
	if err != nil {
		renderError(c, err)
		return
	}
	var order *string
	if o, ok := c.GetQuery("order"); ok {
		order = &o
	}
	list, err := h.vouchers.root.Query().ExportsList(c.Request.Context(), limit, page, order)
	if err != nil {
		renderError(c, err)
		return
	}
	body := make([]exportBody, len(list.Exports))
	for i, exp := range list.Exports {
		body[i] = h.exportJSON(c, exp)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "exports", "exports": body, "total": list.Total})
}

// delete serves DELETE /v1/exports/{exportId}: 204, the file gone too.
func (h exportHandlers) delete(c *gin.Context) {
	if _, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.vouchers.root.Mutation().DeleteExport(ctx, c.Param("id"))
	}); err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
