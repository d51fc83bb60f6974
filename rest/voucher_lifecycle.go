package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/vouchercode"
)

// registerVoucherLifecycle mounts standalone creation, PUT/DELETE
// /v1/vouchers/{code} and enable/disable (each one resolver call).
func registerVoucherLifecycle(v1 *gin.RouterGroup, auth gin.HandlerFunc, h voucherHandlers) {
	v1.POST("/vouchers", auth, h.create)
	v1.POST("/vouchers/:code", reservedVoucherPaths, auth, h.create)
	v1.PUT("/vouchers/:code", auth, h.update)
	v1.DELETE("/vouchers/:code", auth, h.delete)
	v1.POST("/vouchers/:code/enable", auth, h.setActive(true))
	v1.POST("/vouchers/:code/disable", auth, h.setActive(false))
}

// noEndpoint answers a path the router does not serve: 404 not_found,
// "No endpoint METHOD PATH".
func noEndpoint(c *gin.Context) {
	renderError(c, apperr.New(http.StatusNotFound, "not_found", "Resource not found",
		"No endpoint "+c.Request.Method+" "+c.Request.URL.Path))
	c.Abort()
}

// reservedVoucherPaths keeps POST /v1/vouchers/{code} from taking an
// operation of the real service's voucher API for a code
// (POST /v1/vouchers/importCSV, /qualification, /bulk, …): those we serve
// have their own routes, the others answer as an unknown path, before
// authentication, like any other unknown path.
func reservedVoucherPaths(c *gin.Context) {
	if vouchercode.Reserved(c.Param("code")) {
		noEndpoint(c)
	}
}

// update serves PUT /v1/vouchers/{code}.
func (h voucherHandlers) update(c *gin.Context) {
	var in campaign.UpdateVoucherInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	v, err := inTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return h.root.Mutation().UpdateVoucher(ctx, c.Param("code"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.voucherJSON(c, v))
}

// setActive serves POST /v1/vouchers/{code}/enable and …/disable.
func (h voucherHandlers) setActive(active bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := inTx(c, func(ctx context.Context) (*ent.Voucher, error) {
			if active {
				return h.root.Mutation().EnableVoucher(ctx, c.Param("code"))
			}
			return h.root.Mutation().DisableVoucher(ctx, c.Param("code"))
		})
		if err != nil {
			renderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, h.voucherJSON(c, v))
	}
}

// delete serves DELETE /v1/vouchers/{code}[?force=true]: 204.
func (h voucherHandlers) delete(c *gin.Context) {
	force, err := forceParam(c)
	if err != nil {
		renderError(c, err)
		return
	}
	_, err = inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteVoucher(ctx, c.Param("code"), force)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// create serves POST /v1/vouchers and POST /v1/vouchers/{code} (SDK
// vouchers.create): a standalone voucher, in no campaign. A code in the
// path wins over none in the body and must agree with one there.
func (h voucherHandlers) create(c *gin.Context) {
	var in campaign.CreateVoucherInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	if code := c.Param("code"); code != "" {
		if in.Code != nil && *in.Code != code {
			renderError(c, apperr.InvalidPayload("Property .code must be the code in the path (%q) or absent", code))
			return
		}
		in.Code = &code
	}
	v, err := inTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return h.root.Mutation().CreateVoucher(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	body, err := h.voucherWithAssignments(c, v)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}
