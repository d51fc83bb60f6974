package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/rest/segments"
)

// registerCustomers mounts /v1/customers: upsert, list, read, update and
// delete (each one resolver call).
func registerCustomers(v1 *gin.RouterGroup, auth gin.HandlerFunc, h customerHandlers) {
	v1.POST("/customers", auth, h.upsert)
	v1.GET("/customers", auth, h.list)
	v1.GET("/customers/:customerId", auth, h.get)
	v1.PUT("/customers/:customerId", auth, h.update)
	v1.DELETE("/customers/:customerId", auth, h.delete)
	v1.POST("/customers/:customerId/permanent-deletion", auth, h.deletePermanently)
	v1.GET("/customers/:customerId/segments", auth, h.segments)
}

// list serves GET /v1/customers: page/limit, email, name, city, segment_id
// (or segment),
// created_at/updated_at[before|after], order, and the SDK scroll's
// starting_after; the envelope carries has_more.
func (h customerHandlers) list(c *gin.Context) {
	var in customer.CustomerListInput
	var err error
	if in.Limit, in.Page, err = limitAndPage(c); err != nil {
		renderError(c, err)
		return
	}
	queryStrings(c, map[string]**string{"email": &in.Email, "name": &in.Name, "city": &in.City,
		"segment": &in.Segment, "order": &in.Order})
	queryStrings(c, map[string]**string{"segment_id": &in.Segment}) // the reference's name (segment: the older one)
	if err := queryTimes(c, map[string]**time.Time{"created_at[before]": &in.CreatedBefore, "created_at[after]": &in.CreatedAfter,
		"updated_at[before]": &in.UpdatedBefore, "updated_at[after]": &in.UpdatedAfter, "starting_after": &in.StartingAfter}); err != nil {
		renderError(c, err)
		return
	}
	ctx := c.Request.Context()
	res, err := h.root.Query().CustomerList(ctx, &in)
	if err != nil {
		renderError(c, err)
		return
	}
	out, err := customersJSON(ctx, res.Data)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "customers", "customers": out,
		"total": res.Total, "has_more": res.HasMore})
}

// update serves PUT /v1/customers/{customerId}: by ID or source_id.
func (h customerHandlers) update(c *gin.Context) {
	var in customer.CustomerInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	body, err := inTx(c, func(ctx context.Context) (customerBody, error) {
		cust, err := h.root.Mutation().UpdateCustomer(ctx, c.Param("customerId"), in)
		if err != nil {
			return customerBody{}, err
		}
		return h.customerJSON(ctx, cust)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

// delete serves DELETE /v1/customers/{customerId}: 204.
func (h customerHandlers) delete(c *gin.Context) {
	if _, err := h.remove(c); err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// deletePermanently serves POST /v1/customers/{customerId}/permanent-deletion:
// the same deletion, answered with the real service's deletion record.
func (h customerHandlers) deletePermanently(c *gin.Context) {
	d, err := h.remove(c)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"id": pulid.New("del_", 24), "created_at": timestamp(time.Now()), "related_object_id": d.CustomerID,
		"related_object": "customer", "status": "DONE", "object": "pernament_deletion",
		"data_json": gin.H{"events": d.Events, "customer_events": d.Events, "daily_events": 0, "segments": d.Segments,
			"orders": 0, "order_events": 0, "customer": 1, "publications": d.Publications, "loyalty_memberships": d.LoyaltyMemberships}})
}

func (h customerHandlers) remove(c *gin.Context) (*customer.CustomerDeletion, error) {
	return inTx(c, func(ctx context.Context) (*customer.CustomerDeletion, error) {
		return h.root.Mutation().DeleteCustomer(ctx, c.Param("customerId"))
	})
}

// segments serves GET /v1/customers/{customerId}/segments: the segments
// the customer is in, in the v1 list envelope.
func (h customerHandlers) segments(c *gin.Context) {
	segs, err := h.root.Query().CustomerSegments(c.Request.Context(), c.Param("customerId"))
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]any, len(segs))
	for i, s := range segs {
		out[i] = segments.JSON(s)
	}
	c.PureJSON(http.StatusOK, newList(out, len(out)))
}
