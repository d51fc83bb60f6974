package vouchers

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/vouchercode"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerLifecycle mounts standalone creation, PUT/DELETE
// /v1/vouchers/{code} and enable/disable (each one resolver call).
func registerLifecycle(v1 *gin.RouterGroup, auth gin.HandlerFunc, r Renderer) {
	m := r.Root.Mutation()
	one := func(op httpkit.Op[*ent.Voucher]) gin.HandlerFunc {
		return func(c *gin.Context) {
			if v, err := httpkit.Run(c, op, true); err != nil {
				httpkit.RenderError(c, err)
			} else {
				c.PureJSON(http.StatusOK, r.JSON(c, v))
			}
		}
	}
	v1.POST("/vouchers", auth, r.create)
	v1.POST("/vouchers/:code", reservedPaths, auth, r.create)
	v1.PUT("/vouchers/:code", auth, one(httpkit.WithParamAndBody("code", m.UpdateVoucher)))
	// 204 ([?force=true]).
	v1.DELETE("/vouchers/:code", auth, httpkit.NoContent(func(c *gin.Context) (httpkit.Call[string], error) {
		force, err := httpkit.ForceParam(c)
		if err != nil {
			return nil, err
		}
		code := c.Param("code")
		return func(ctx context.Context) (string, error) { return m.DeleteVoucher(ctx, code, force) }, nil
	}))
	v1.POST("/vouchers/:code/enable", auth, one(httpkit.ByParam("code", m.EnableVoucher)))
	v1.POST("/vouchers/:code/disable", auth, one(httpkit.ByParam("code", m.DisableVoucher)))
}

// reservedPaths keeps POST /v1/vouchers/{code} from taking an operation of
// the real service's voucher API for a code (POST /v1/vouchers/importCSV,
// /qualification, /bulk, …): those we serve have their own routes, the
// others answer as an unknown path, before authentication, like any other
// unknown path.
func reservedPaths(c *gin.Context) {
	if vouchercode.Reserved(c.Param("code")) {
		httpkit.NoEndpoint(c)
	}
}

// create serves POST /v1/vouchers and POST /v1/vouchers/{code} (SDK
// vouchers.create): a standalone voucher, in no campaign. A code in the
// path wins over none in the body and must agree with one there.
func (r Renderer) create(c *gin.Context) {
	var in campaign.CreateVoucherInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	if code := c.Param("code"); code != "" {
		if in.Code != nil && *in.Code != code {
			httpkit.RenderError(c, apperr.InvalidPayload("Property .code must be the code in the path (%q) or absent", code))
			return
		}
		in.Code = &code
	}
	v, err := httpkit.InTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return r.Root.Mutation().CreateVoucher(ctx, in)
	})
	r.withAssignments(c, v, err)
}
