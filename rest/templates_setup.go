package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/template"
)

// The set-ups of /v1/templates/campaigns/{id}: a campaign, or a promotion
// tier, made from a template.

// createdResourcesJSON is a set-up's created_resources (never null).
func createdResourcesJSON(rs []*template.CreatedResource) []*template.CreatedResource {
	if rs == nil {
		return []*template.CreatedResource{}
	}
	return rs
}

// campaignSetup serves POST …/{id}/campaign-setup.
func (h templateHandlers) campaignSetup(c *gin.Context) {
	var in template.CampaignSetupInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	out, err := inTx(c, func(ctx context.Context) (*template.CampaignSetup, error) {
		return h.root.Mutation().CreateCampaignFromTemplate(ctx, c.Param("campaignTemplateId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	cats, err := h.root.Campaign().Categories(c.Request.Context(), out.Campaign)
	if err != nil {
		renderError(c, err)
		return
	}
	body := campaignJSON(out.Campaign)
	body.Categories = categoriesJSON(cats)
	c.PureJSON(http.StatusOK, gin.H{"created_resources": createdResourcesJSON(out.CreatedResources),
		"campaign": body, "object": "campaign_setup"})
}

// tierSetup serves POST …/{id}/tier-setup.
func (h templateHandlers) tierSetup(c *gin.Context) {
	var in template.TierSetupInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	out, err := inTx(c, func(ctx context.Context) (*template.TierSetup, error) {
		return h.root.Mutation().AddPromotionTierFromTemplate(ctx, c.Param("campaignTemplateId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	d, err := promotion.DetailsOf(c.Request.Context(), out.PromotionTier)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"created_resources": createdResourcesJSON(out.CreatedResources),
		"promotion_tier": tierJSON(out.PromotionTier, d), "object": "promotion_tier_setup"})
}
