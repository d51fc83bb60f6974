package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/redemption"
)

// registerPromotionLegacy mounts the deprecated promotion endpoints the
// real service still serves: POST /v1/promotions/validation,
// POST /v1/promotions/tiers/{id}/redemption and …/validation.
func registerPromotionLegacy(v1 *gin.RouterGroup, auth gin.HandlerFunc, h redemptionHandlers) {
	v1.POST("/promotions/validation", auth, h.validatePromotions)
	v1.POST("/promotions/tiers/:promotionTierId/redemption", auth, h.redeemPromotionTier)
	v1.POST("/promotions/tiers/:promotionTierId/validation", auth, h.validatePromotionTier)
}

// validatePromotionTier serves POST /v1/promotions/tiers/{id}/validation:
// one tier on the order, valid or not with its reason.
func (h redemptionHandlers) validatePromotionTier(c *gin.Context) {
	var in redemption.VoucherRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	res, err := redemption.ValidatePromotionTier(c.Request.Context(), c.Param("promotionTierId"), &in) // admitted, no transaction
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, res)
}

// validatePromotions serves POST /v1/promotions/validation: every
// available tier that applies to the order, each computed alone.
func (h redemptionHandlers) validatePromotions(c *gin.Context) {
	var in redemption.VoucherRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Mutation().ValidatePromotions(c.Request.Context(), &in) // admitted, no transaction
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, res)
}

// redeemPromotionTier serves POST /v1/promotions/tiers/{id}/redemption:
// the redemption object, or 400 with the failure (stored as rf_…).
func (h redemptionHandlers) redeemPromotionTier(c *gin.Context) {
	var in redemption.VoucherRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Mutation().RedeemPromotionTier(c.Request.Context(), c.Param("promotionTierId"), &in) // its own transaction
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
