package rest

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
)

// registerCampaigns mounts /v1/campaigns: create, list, read, update,
// enable/disable and delete (each one resolver call).
func registerCampaigns(v1 *gin.RouterGroup, auth gin.HandlerFunc, h campaignHandlers) {
	v1.POST("/campaigns", auth, h.create)
	v1.GET("/campaigns", auth, h.list)
	v1.GET("/campaigns/:campaignId", auth, h.get)
	v1.PUT("/campaigns/:campaignId", auth, h.update)
	v1.DELETE("/campaigns/:campaignId", auth, h.delete)
	v1.POST("/campaigns/:campaignId/enable", auth, h.setActive(true))
	v1.POST("/campaigns/:campaignId/disable", auth, h.setActive(false))
}

// list serves GET /v1/campaigns: page/limit, campaign_type,
// campaign_status, is_referral_code, order, expand=category (each
// campaign's categories; empty without it).
func (h campaignHandlers) list(c *gin.Context) {
	limit, page, err := limitAndPage(c)
	if err != nil {
		renderError(c, err)
		return
	}
	in := campaignpkg.CampaignListInput{Limit: limit, Page: page}
	if v, ok := c.GetQuery("campaign_type"); ok {
		t := campaign.CampaignType(v)
		in.CampaignType = &t
	}
	if v, ok := c.GetQuery("campaign_status"); ok {
		in.CampaignStatus = &v
	}
	if v, ok := c.GetQuery("order"); ok {
		in.Order = &v
	}
	in.Expand = queryList(c, "expand") // query.go
	if v, ok := c.GetQuery("is_referral_code"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			renderError(c, apperr.InvalidQueryParams("Query parameter is_referral_code must be true or false"))
			return
		}
		in.IsReferralCode = &b
	}
	res, err := h.root.Query().CampaignList(c.Request.Context(), &in)
	if err != nil {
		renderError(c, err)
		return
	}
	renderCampaignList(c, res)
}

// renderCampaignList answers with a v1 list of campaigns.
func renderCampaignList(c *gin.Context, res *campaignpkg.CampaignList) {
	out := make([]campaignBody, len(res.Data))
	for i, cmp := range res.Data {
		out[i] = campaignJSON(cmp)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "campaigns", "campaigns": out, "total": res.Total})
}

// update serves PUT /v1/campaigns/{campaignId}.
func (h campaignHandlers) update(c *gin.Context) {
	var in campaignpkg.UpdateCampaignInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	updated, err := inTx(c, func(ctx context.Context) (*ent.Campaign, error) {
		return h.root.Mutation().UpdateCampaign(ctx, c.Param("campaignId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	h.renderCampaign(c, http.StatusOK, updated)
}

// setActive serves POST /v1/campaigns/{campaignId}/enable and …/disable.
func (h campaignHandlers) setActive(active bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		cmp, err := inTx(c, func(ctx context.Context) (*ent.Campaign, error) {
			if active {
				return h.root.Mutation().EnableCampaign(ctx, c.Param("campaignId"))
			}
			return h.root.Mutation().DisableCampaign(ctx, c.Param("campaignId"))
		})
		if err != nil {
			renderError(c, err)
			return
		}
		h.renderCampaign(c, http.StatusOK, cmp)
	}
}

// delete serves DELETE /v1/campaigns/{campaignId}[?force=true]: 202 with
// the async action that deletes the campaign.
func (h campaignHandlers) delete(c *gin.Context) {
	force, err := forceParam(c)
	if err != nil {
		renderError(c, err)
		return
	}
	job, err := inTx(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().DeleteCampaign(ctx, c.Param("campaignId"), force)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusAccepted, gin.H{"async_action_id": job.ID})
}
