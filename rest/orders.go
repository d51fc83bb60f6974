package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/order"
)

// orderHandlers serve /v1/orders (SDK: orders.*) through the GraphQL
// resolvers; an order in a path is its id or its source_id.
type orderHandlers struct {
	root    *graph.Resolver
	exports exportHandlers
}

// registerOrders mounts the orders' routes.
func registerOrders(v1 *gin.RouterGroup, auth gin.HandlerFunc, h orderHandlers) {
	v1.GET("/orders", auth, h.list)
	v1.POST("/orders", auth, h.create)
	v1.POST("/orders/import", auth, h.importOrders)
	v1.POST("/orders/export", auth, h.export)
	v1.GET("/orders/:orderId", auth, h.get)
	v1.PUT("/orders/:orderId", auth, h.update)
}

// list serves GET /v1/orders: limit, page, order.
func (h orderHandlers) list(c *gin.Context) {
	in := &order.ListInput{}
	var err error
	if in.Limit, err = queryInt(c, "limit"); err == nil {
		in.Page, err = queryInt(c, "page")
	}
	if err != nil {
		renderError(c, err)
		return
	}
	queryStrings(c, map[string]**string{"order": &in.Order})
	res, err := h.root.Query().OrderList(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]*order.View, len(res.Data))
	for i, o := range res.Data {
		out[i] = order.ViewOf(o)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "orders", "orders": out, "total": res.Total})
}

// create serves POST /v1/orders: an upsert by id or source_id.
func (h orderHandlers) create(c *gin.Context) {
	var in order.OrderInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	o, err := inTx(c, func(ctx context.Context) (*ent.Order, error) {
		return h.root.Mutation().CreateOrder(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, order.ViewOf(o))
}

// get serves GET /v1/orders/{orderId}.
func (h orderHandlers) get(c *gin.Context) {
	o, err := h.root.Query().Order(c.Request.Context(), c.Param("orderId"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, order.ViewOf(o))
}

// update serves PUT /v1/orders/{orderId}: the sent fields change.
func (h orderHandlers) update(c *gin.Context) {
	var in order.OrderInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	o, err := inTx(c, func(ctx context.Context) (*ent.Order, error) {
		return h.root.Mutation().UpdateOrder(ctx, c.Param("orderId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, order.ViewOf(o))
}

// importOrders serves POST /v1/orders/import: a JSON array of orders,
// imported by a background job (202 {async_action_id}; ORDERS.IMPORT).
func (h orderHandlers) importOrders(c *gin.Context) {
	var items []*order.OrderInput
	if err := decodeBulkBody(c, &items); err != nil {
		renderError(c, err)
		return
	}
	job, err := inTx(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportOrders(ctx, items)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusAccepted, gin.H{"async_action_id": job.ID})
}

// export serves POST /v1/orders/export: {parameters: {fields, order,
// filters}}; the export object, SCHEDULED.
func (h orderHandlers) export(c *gin.Context) {
	var in exportpkg.OrderExportInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	exp, err := inTx(c, func(ctx context.Context) (*ent.Export, error) {
		return h.root.Mutation().ExportOrders(ctx, in.Parameters)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.exports.exportJSON(c, exp))
}
