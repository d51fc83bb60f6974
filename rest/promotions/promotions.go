// Package promotions serves the promotion tiers and stacks of PROMOTION
// campaigns (/v1/promotions/…, SDK promotions.tiers.* and
// promotions.stacks.*) through the graph's resolvers (graph/promotion),
// and renders the tier, stack and campaign promotion objects that the
// campaigns' routes, webhook payloads, template set-ups and redemptions
// show (TierJSON, StackJSON, CampaignPromotion).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit and rest/categories, never rest
// (graph/internal/layering). The deprecated validation and redemption
// routes under /v1/promotions are redemptions and stay with them in rest.
package promotions

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Register mounts the tier and stack routes on v1, each behind auth (the
// v1 keys or a bearer token); root is the router's resolver. A campaign
// in a path is its id or its name.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	q, m := root.Query(), root.Mutation()
	v1.GET("/promotions/tiers", auth, ListTiers(root))
	v1.GET("/promotions/tiers/:promotionTierId", auth, tier(httpkit.ByParam("promotionTierId", q.PromotionTier), false))
	v1.PUT("/promotions/tiers/:promotionTierId", auth, tier(httpkit.WithParamAndBody("promotionTierId", m.UpdatePromotionTier), true))
	v1.DELETE("/promotions/tiers/:promotionTierId", auth, httpkit.NoContent(httpkit.ByParam("promotionTierId", m.DeletePromotionTier)))
	v1.POST("/promotions/tiers/:promotionTierId/enable", auth, tier(httpkit.ByParam("promotionTierId", m.EnablePromotionTier), true))
	v1.POST("/promotions/tiers/:promotionTierId/disable", auth, tier(httpkit.ByParam("promotionTierId", m.DisablePromotionTier), true))
	v1.GET("/promotions/stacks", auth, httpkit.Read(httpkit.WithQuery(listInput, q.PromotionStackList), stackList))
	v1.GET("/promotions/:campaignId/tiers", auth, tiers(httpkit.WithParamAndQuery("campaignId", listInput, q.CampaignPromotionTiers)))
	v1.POST("/promotions/:campaignId/tiers", auth, tier(httpkit.WithParamAndBody("campaignId", m.CreatePromotionTier), true))
	v1.GET("/promotions/:campaignId/stacks", auth,
		httpkit.Read(httpkit.WithParamAndQuery("campaignId", listInput, q.CampaignPromotionStacks), stackList))
	v1.POST("/promotions/:campaignId/stacks", auth, httpkit.Write(httpkit.WithParamAndBody("campaignId", m.CreatePromotionStack), StackJSON))
	v1.GET("/promotions/:campaignId/stacks/:stackId", auth, httpkit.Read(httpkit.ByParams("campaignId", "stackId", q.PromotionStack), StackJSON))
	v1.PUT("/promotions/:campaignId/stacks/:stackId", auth,
		httpkit.Write(httpkit.WithParamsAndBody("campaignId", "stackId", m.UpdatePromotionStack), StackJSON))
	v1.DELETE("/promotions/:campaignId/stacks/:stackId", auth, httpkit.NoContent(httpkit.ByParams("campaignId", "stackId", m.DeletePromotionStack)))
}

// ListTiers serves GET /v1/promotions/tiers (also the client API's, for a
// web page's promotion widget).
func ListTiers(root *graph.Resolver) gin.HandlerFunc {
	return tiers(httpkit.WithQuery(listInput, root.Query().PromotionTierList))
}

// listInput reads the lists' query: limit, page, order, is_available
// (tiers), created_at[before|after] and updated_at[…] (stacks; also as
// filters[created_at][conditions][$before][0]).
func listInput(c *gin.Context) (*promotion.ListInput, error) {
	in := &promotion.ListInput{}
	var err error
	if in.Limit, err = httpkit.QueryInt(c, "limit"); err != nil {
		return nil, err
	}
	if in.Page, err = httpkit.QueryInt(c, "page"); err != nil {
		return nil, err
	}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	if raw := c.Query("is_available"); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter is_available must be true or false, got %q", raw)
		}
		in.IsAvailable = &b
	}
	if err := httpkit.QueryTimes(c, map[string]**time.Time{
		"created_at[after]": &in.CreatedAfter, "created_at[before]": &in.CreatedBefore,
		"updated_at[after]": &in.UpdatedAfter, "updated_at[before]": &in.UpdatedBefore,
		"filters[created_at][conditions][$after][0]": &in.CreatedAfter, "filters[created_at][conditions][$before][0]": &in.CreatedBefore,
		"filters[updated_at][conditions][$after][0]": &in.UpdatedAfter, "filters[updated_at][conditions][$before][0]": &in.UpdatedBefore,
	}); err != nil {
		return nil, err
	}
	return in, nil
}

// tiers answers a tier list ({object, data_ref:"tiers", tiers, total,
// has_more}), each tier with its assignments and category (read after
// the call).
func tiers(op httpkit.Op[*promotion.TierList]) gin.HandlerFunc {
	return func(c *gin.Context) {
		res, err := httpkit.Run(c, op, false)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		d, err := promotion.DetailsOf(c.Request.Context(), res.Data...)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		out := make([]TierBody, len(res.Data))
		for i, t := range res.Data {
			out[i] = TierJSON(t, d)
		}
		c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "tiers", "tiers": out, "total": res.Total,
			"has_more": res.HasMore})
	}
}

// tier answers one tier with its assignments and category, read after the
// call (which runs in a transaction if write).
func tier(op httpkit.Op[*ent.PromotionTier], write bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		t, err := httpkit.Run(c, op, write)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		d, err := promotion.DetailsOf(c.Request.Context(), t)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, TierJSON(t, d))
	}
}

// stackList is a stack list ({object, data_ref:"data", data, total}).
func stackList(res *promotion.StackList) httpkit.ListEnvelope[StackBody] {
	out := make([]StackBody, len(res.Data))
	for i, s := range res.Data {
		out[i] = StackJSON(s)
	}
	return httpkit.NewList(out, res.Total)
}
