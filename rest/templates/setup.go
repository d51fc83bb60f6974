package templates

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/template"
	"github.com/promoengine/promoengine/rest/campaigns"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/promotions"
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
func (h handlers) campaignSetup(c *gin.Context) {
	var in template.CampaignSetupInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out, err := httpkit.InTx(c, func(ctx context.Context) (*template.CampaignSetup, error) {
		return h.root.Mutation().CreateCampaignFromTemplate(ctx, c.Param("campaignTemplateId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	cats, err := h.root.Campaign().Categories(c.Request.Context(), out.Campaign)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"created_resources": createdResourcesJSON(out.CreatedResources),
		"campaign": campaignJSON(out.Campaign, cats), "object": "campaign_setup"})
}

// tierSetup serves POST …/{id}/tier-setup.
func (h handlers) tierSetup(c *gin.Context) {
	var in template.TierSetupInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out, err := httpkit.InTx(c, func(ctx context.Context) (*template.TierSetup, error) {
		return h.root.Mutation().AddPromotionTierFromTemplate(ctx, c.Param("campaignTemplateId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	d, err := promotion.DetailsOf(c.Request.Context(), out.PromotionTier)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"created_resources": createdResourcesJSON(out.CreatedResources),
		"promotion_tier": promotions.TierJSON(out.PromotionTier, d), "object": "promotion_tier_setup"})
}

// campaignJSON is the campaign a campaign-setup made, with its categories.
func campaignJSON(cmp *ent.Campaign, cats []*ent.Category) campaigns.Body {
	body := campaigns.JSON(cmp)
	body.Categories = categories.ListJSON(cats)
	return body
}
