package rest

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/promotion"
)

// promotionHandlers serve /v1/promotions/… (SDK: promotions.tiers.*,
// promotions.stacks.*) through the GraphQL resolvers.
type promotionHandlers struct{ root *graph.Resolver }

// registerPromotions mounts the tier and stack routes. A campaign in a
// path is its id or its name.
func registerPromotions(v1 *gin.RouterGroup, auth gin.HandlerFunc, h promotionHandlers) {
	v1.GET("/promotions/tiers", auth, h.listTiers)
	v1.GET("/promotions/tiers/:promotionTierId", auth, h.getTier)
	v1.PUT("/promotions/tiers/:promotionTierId", auth, h.updateTier)
	v1.DELETE("/promotions/tiers/:promotionTierId", auth, h.deleteTier)
	v1.POST("/promotions/tiers/:promotionTierId/enable", auth, h.setTierActive(true))
	v1.POST("/promotions/tiers/:promotionTierId/disable", auth, h.setTierActive(false))
	v1.GET("/promotions/stacks", auth, h.listStacks)
	v1.GET("/promotions/:campaignId/tiers", auth, h.campaignTiers)
	v1.POST("/promotions/:campaignId/tiers", auth, h.createTier)
	v1.GET("/promotions/:campaignId/stacks", auth, h.campaignStacks)
	v1.POST("/promotions/:campaignId/stacks", auth, h.createStack)
	v1.GET("/promotions/:campaignId/stacks/:stackId", auth, h.getStack)
	v1.PUT("/promotions/:campaignId/stacks/:stackId", auth, h.updateStack)
	v1.DELETE("/promotions/:campaignId/stacks/:stackId", auth, h.deleteStack)
}

// campaignParam is the campaign of a /v1/promotions/{campaignId}/… path.
func campaignParam(c *gin.Context) string { return c.Param("campaignId") }

// promotionListInput reads the lists' query: limit, page, order,
// is_available (tiers), created_at[before|after] and updated_at[…]
// (stacks; also as filters[created_at][conditions][$before][0]).
func promotionListInput(c *gin.Context) (*promotion.ListInput, error) {
	in := &promotion.ListInput{}
	var err error
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		return nil, err
	}
	if in.Page, err = queryInt(c, "page"); err != nil {
		return nil, err
	}
	queryStrings(c, map[string]**string{"order": &in.Order})
	if raw := c.Query("is_available"); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter is_available must be true or false, got %q", raw)
		}
		in.IsAvailable = &b
	}
	if err := queryTimes(c, map[string]**time.Time{
		"created_at[after]": &in.CreatedAfter, "created_at[before]": &in.CreatedBefore,
		"updated_at[after]": &in.UpdatedAfter, "updated_at[before]": &in.UpdatedBefore,
		"filters[created_at][conditions][$after][0]": &in.CreatedAfter, "filters[created_at][conditions][$before][0]": &in.CreatedBefore,
		"filters[updated_at][conditions][$after][0]": &in.UpdatedAfter, "filters[updated_at][conditions][$before][0]": &in.UpdatedBefore,
	}); err != nil {
		return nil, err
	}
	return in, nil
}

// renderTiers answers a tier list ({object, data_ref:"tiers", tiers, total, has_more}).
func renderTiers(c *gin.Context, res *promotion.TierList, err error) {
	if err != nil {
		renderError(c, err)
		return
	}
	d, err := promotion.DetailsOf(c.Request.Context(), res.Data...)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]tierBody, len(res.Data))
	for i, t := range res.Data {
		out[i] = tierJSON(t, d)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "tiers", "tiers": out, "total": res.Total,
		"has_more": res.HasMore})
}

// renderTier answers one tier with its assignments and category.
func renderTier(c *gin.Context, t *ent.PromotionTier, err error) {
	if err != nil {
		renderError(c, err)
		return
	}
	d, err := promotion.DetailsOf(c.Request.Context(), t)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, tierJSON(t, d))
}

// listTiers serves GET /v1/promotions/tiers.
func (h promotionHandlers) listTiers(c *gin.Context) {
	in, err := promotionListInput(c)
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().PromotionTierList(c.Request.Context(), in)
	renderTiers(c, res, err)
}

// campaignTiers serves GET /v1/promotions/{campaignId}/tiers.
func (h promotionHandlers) campaignTiers(c *gin.Context) {
	in, err := promotionListInput(c)
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().CampaignPromotionTiers(c.Request.Context(), campaignParam(c), in)
	renderTiers(c, res, err)
}

// createTier serves POST /v1/promotions/{campaignId}/tiers.
func (h promotionHandlers) createTier(c *gin.Context) {
	var in promotion.TierInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	t, err := inTx(c, func(ctx context.Context) (*ent.PromotionTier, error) {
		return h.root.Mutation().CreatePromotionTier(ctx, campaignParam(c), in)
	})
	renderTier(c, t, err)
}

// getTier serves GET /v1/promotions/tiers/{id}.
func (h promotionHandlers) getTier(c *gin.Context) {
	t, err := h.root.Query().PromotionTier(c.Request.Context(), c.Param("promotionTierId"))
	renderTier(c, t, err)
}

// updateTier serves PUT /v1/promotions/tiers/{id}.
func (h promotionHandlers) updateTier(c *gin.Context) {
	var in promotion.TierInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	t, err := inTx(c, func(ctx context.Context) (*ent.PromotionTier, error) {
		return h.root.Mutation().UpdatePromotionTier(ctx, c.Param("promotionTierId"), in)
	})
	renderTier(c, t, err)
}

// deleteTier serves DELETE /v1/promotions/tiers/{id}: 204.
func (h promotionHandlers) deleteTier(c *gin.Context) {
	if _, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeletePromotionTier(ctx, c.Param("promotionTierId"))
	}); err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// setTierActive serves POST /v1/promotions/tiers/{id}/enable and /disable.
func (h promotionHandlers) setTierActive(active bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		t, err := inTx(c, func(ctx context.Context) (*ent.PromotionTier, error) {
			if active {
				return h.root.Mutation().EnablePromotionTier(ctx, c.Param("promotionTierId"))
			}
			return h.root.Mutation().DisablePromotionTier(ctx, c.Param("promotionTierId"))
		})
		renderTier(c, t, err)
	}
}

// renderStacks answers a stack list ({object, data_ref:"data", data, total}).
func renderStacks(c *gin.Context, res *promotion.StackList, err error) {
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]stackBody, len(res.Data))
	for i, s := range res.Data {
		out[i] = stackJSON(s)
	}
	c.PureJSON(http.StatusOK, newList(out, res.Total))
}

func renderStack(c *gin.Context, s *ent.PromotionStack, err error) {
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, stackJSON(s))
}

// listStacks serves GET /v1/promotions/stacks.
func (h promotionHandlers) listStacks(c *gin.Context) {
	in, err := promotionListInput(c)
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().PromotionStackList(c.Request.Context(), in)
	renderStacks(c, res, err)
}

// campaignStacks serves GET /v1/promotions/{campaignId}/stacks.
func (h promotionHandlers) campaignStacks(c *gin.Context) {
	in, err := promotionListInput(c)
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().CampaignPromotionStacks(c.Request.Context(), campaignParam(c), in)
	renderStacks(c, res, err)
}

// createStack serves POST /v1/promotions/{campaignId}/stacks.
func (h promotionHandlers) createStack(c *gin.Context) {
	var in promotion.StackInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	s, err := inTx(c, func(ctx context.Context) (*ent.PromotionStack, error) {
		return h.root.Mutation().CreatePromotionStack(ctx, campaignParam(c), in)
	})
	renderStack(c, s, err)
}

// getStack serves GET /v1/promotions/{campaignId}/stacks/{stackId}.
func (h promotionHandlers) getStack(c *gin.Context) {
	s, err := h.root.Query().PromotionStack(c.Request.Context(), campaignParam(c), c.Param("stackId"))
	renderStack(c, s, err)
}

// updateStack serves PUT /v1/promotions/{campaignId}/stacks/{stackId}.
func (h promotionHandlers) updateStack(c *gin.Context) {
	var in promotion.StackInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	s, err := inTx(c, func(ctx context.Context) (*ent.PromotionStack, error) {
		return h.root.Mutation().UpdatePromotionStack(ctx, campaignParam(c), c.Param("stackId"), in)
	})
	renderStack(c, s, err)
}

// deleteStack serves DELETE /v1/promotions/{campaignId}/stacks/{stackId}: 204.
func (h promotionHandlers) deleteStack(c *gin.Context) {
	if _, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeletePromotionStack(ctx, campaignParam(c), c.Param("stackId"))
	}); err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
