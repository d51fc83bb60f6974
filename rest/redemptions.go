package rest

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/redemption/rollback"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// redemptionHandlers serve validation, redemption, rollback and the
// redemption history through the GraphQL resolvers.
type redemptionHandlers struct {
	root     *graph.Resolver
	vouchers voucherHandlers
}

func registerRedemptions(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver, vouchers voucherHandlers) {
	h := redemptionHandlers{root: root, vouchers: vouchers}
	v1.POST("/validations", auth, h.validateStacked)
	v1.POST("/redemptions", auth, h.redeemStacked)
	v1.GET("/redemptions", auth, h.list)
	v1.GET("/redemptions/:id", auth, h.get)
	v1.POST("/redemptions/:id/rollback", auth, h.rollback(false))
	v1.POST("/redemptions/:id/rollbacks", auth, h.rollback(true))
	v1.POST("/vouchers/:code/validate", auth, h.validateVoucher)
	v1.POST("/vouchers/:code/redemption", auth, h.redeemVoucher)
	v1.GET("/vouchers/:code/redemption", auth, h.voucherRedemptions)
	v1.GET("/vouchers/:code/redemptions", auth, h.voucherRedemptions)
	v1.DELETE("/vouchers/:code/sessions/:key", auth, h.releaseSession)
}

// validateStacked serves POST /v1/validations.
func (h redemptionHandlers) validateStacked(c *gin.Context) {
	var in redemption.StackedRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Mutation().ValidateStacked(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, res)
}

// validateVoucher serves the legacy POST /v1/vouchers/{code}/validate.
func (h redemptionHandlers) validateVoucher(c *gin.Context) {
	var in redemption.VoucherRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Mutation().ValidateVoucher(c.Request.Context(), c.Param("code"), &in)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, res.Body)
}

// redeemStacked serves POST /v1/redemptions: 200 with the parent and child
// redemptions, or 400 with the failure (the failed redemption is stored).
func (h redemptionHandlers) redeemStacked(c *gin.Context) {
	var in redemption.StackedRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	// The resolver opens its own transaction when it needs one
	// (graph/redemption/statement.go).
	res, err := h.root.Mutation().RedeemStacked(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	if res.Failure != nil {
		renderFailure(c, res.Failure)
		return
	}
	body := stackedRedemptionBody{Redemptions: h.redemptionsJSON(c, res.Redemptions),
		ParentRedemption: h.redemptionJSON(c, res.ParentRedemption), Order: res.Order}
	if res.InapplicableRedeemables != nil {
		body.InapplicableRedeemables = res.InapplicableRedeemables
	}
	if res.SkippedRedeemables != nil {
		body.SkippedRedeemables = res.SkippedRedeemables
	}
	c.PureJSON(http.StatusOK, body)
}

// stackedRedemptionBody is POST /v1/redemptions' answer, its keys in the
// order they had as a map (sorted); the lists of PARTIAL mode appear when
// set (an empty list included).
type stackedRedemptionBody struct {
	InapplicableRedeemables any                 `json:"inapplicable_redeemables,omitempty"`
	Order                   any                 `json:"order"`
	ParentRedemption        *redemptionObject   `json:"parent_redemption"`
	Redemptions             []*redemptionObject `json:"redemptions"`
	SkippedRedeemables      any                 `json:"skipped_redeemables,omitempty"`
}

// redeemVoucher serves the legacy POST /v1/vouchers/{code}/redemption;
// tracking_id may come in the body (the SDK) or the query.
func (h redemptionHandlers) redeemVoucher(c *gin.Context) {
	var in redemption.VoucherRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	h.redeemCode(c, c.Param("code"), in)
}

// redeemCode redeems one code (the legacy form, server- or client-side).
func (h redemptionHandlers) redeemCode(c *gin.Context, code string, in redemption.VoucherRedemptionInput) {
	if t := c.Query("tracking_id"); t != "" && in.TrackingID == nil {
		in.TrackingID = &t
	}
	res, err := h.root.Mutation().RedeemVoucher(c.Request.Context(), code, &in) // its own transaction, as above
	if err != nil {
		renderError(c, err)
		return
	}
	if res.Failure != nil {
		renderFailure(c, res.Failure)
		return
	}
	c.PureJSON(http.StatusOK, h.redemptionJSON(c, res.Redemption))
}

// renderFailure answers a failed redemption with its error object.
func renderFailure(c *gin.Context, f *redemption.RedemptionFailure) {
	e := apperr.New(f.Code, f.Key, f.Message, deref(f.Details))
	e.ResourceID, e.ResourceType = deref(f.ResourceID), deref(f.ResourceType)
	if f.Error != nil {
		e.CustomMessage = f.Error.Message
	}
	renderError(c, e)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// rollback serves POST /v1/redemptions/{id}/rollback (single) and
// …/rollbacks (stacked); reason and tracking_id come from the query or
// the body, and a missing body is fine.
func (h redemptionHandlers) rollback(stacked bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in rollback.RollbackInput
		if err := decodeBody(c, &in); err != nil {
			renderError(c, err)
			return
		}
		if r := c.Query("reason"); r != "" && in.Reason == nil {
			in.Reason = &r
		}
		if t := c.Query("tracking_id"); t != "" && in.TrackingID == nil {
			in.TrackingID = &t
		}
		res, err := inTx(c, func(ctx context.Context) (*rollback.RollbackResult, error) {
			if stacked {
				return h.root.Mutation().RollbackStackedRedemption(ctx, c.Param("id"), &in)
			}
			return h.root.Mutation().RollbackRedemption(ctx, c.Param("id"), &in)
		})
		if err != nil {
			renderError(c, err)
			return
		}
		rb := h.redemptionJSON(c, res.Rollback)
		if res.Order != nil {
			rb.Order = res.Order
		}
		if !stacked {
			c.PureJSON(http.StatusOK, rb)
			return
		}
		c.PureJSON(http.StatusOK, gin.H{"rollbacks": h.redemptionsJSON(c, res.Rollbacks), "parent_rollback": rb, "order": res.Order})
	}
}

// get serves GET /v1/redemptions/{id}.
func (h redemptionHandlers) get(c *gin.Context) {
	r, err := h.root.Query().Redemption(c.Request.Context(), c.Param("id"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.redemptionJSON(c, r))
}

// list serves GET /v1/redemptions: redemptionListQuery's parameters and
// the filters[…] object (graph/redemption list_filters.go).
func (h redemptionHandlers) list(c *gin.Context) {
	in, err := redemptionListQuery(c)
	if err == nil {
		in.Filters, err = httpkit.DeepFilters(c.Request.URL.Query())
	}
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().RedemptionList(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	renderRedemptionList(c, gin.H{"object": "list", "data_ref": "redemptions", "total": res.Total},
		"redemptions", h.redemptionsJSON(c, res.Data))
}

// voucherRedemptions serves GET /v1/vouchers/{code}/redemption(s): the
// voucher's history (successes, failures and rollbacks) with its counters.
func (h redemptionHandlers) voucherRedemptions(c *gin.Context) {
	v, err := h.root.Query().Voucher(c.Request.Context(), c.Param("code"))
	if err != nil {
		renderError(c, err)
		return
	}
	in, err := redemptionListQuery(c)
	if err != nil {
		renderError(c, err)
		return
	}
	in.Voucher = &v.ID
	res, err := h.root.Query().RedemptionList(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	renderRedemptionList(c, gin.H{"quantity": v.RedemptionQuantity, "redeemed_quantity": v.RedeemedQuantity,
		"object": "list", "url": "/v1/vouchers/" + url.PathEscape(v.Code) + "/redemptions?page=1&limit=10",
		"data_ref": "redemption_entries", "total": res.Total}, "redemption_entries", h.redemptionsJSON(c, res.Data))
}

// releaseSession serves DELETE /v1/vouchers/{code}/sessions/{key}: 204.
func (h redemptionHandlers) releaseSession(c *gin.Context) {
	_, err := inTx(c, func(ctx context.Context) (bool, error) {
		return h.root.Mutation().ReleaseSession(ctx, c.Param("code"), c.Param("key"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// redemptionListQuery reads the list's query parameters (the SDK sends
// created_at[before]/[after] in bracket form).
func redemptionListQuery(c *gin.Context) (*redemption.RedemptionListInput, error) {
	in := &redemption.RedemptionListInput{}
	var err error
	if in.Limit, in.Page, err = limitAndPage(c); err != nil {
		return nil, err
	}
	in.Result = append(c.QueryArray("result"), c.QueryArray("result[]")...)
	queryStrings(c, map[string]**string{"campaign": &in.Campaign, "customer": &in.Customer, "order": &in.Order})
	err = queryTimes(c, map[string]**time.Time{"created_at[before]": &in.CreatedBefore, "created_at[after]": &in.CreatedAfter})
	return in, err
}
