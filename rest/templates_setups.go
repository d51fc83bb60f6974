package rest

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/rest/campaigns"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/promotions"
	"github.com/promoengine/promoengine/rest/templates"
)

// templateSetups are the renderings the v1 templates area (rest/templates)
// needs for what its set-ups create, from the campaign and promotion areas
// still in rest: a campaign with its categories, a promotion tier.
var templateSetups = templates.Setups{
	Campaign: func(c *ent.Campaign, cats []*ent.Category) any {
		body := campaigns.JSON(c)
		body.Categories = categories.ListJSON(cats)
		return body
	},
	Tier: func(t *ent.PromotionTier, d *promotion.TierDetails) any { return promotions.TierJSON(t, d) },
}
