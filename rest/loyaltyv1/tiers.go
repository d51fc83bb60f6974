package loyaltyv1

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerLoyaltyV1Tiers adds /v1/loyalties/{campaignId}/tiers… and the
// member's tiers.
func registerLoyaltyV1Tiers(v1 *gin.RouterGroup, auth gin.HandlerFunc, h loyaltyV1Handlers) {
	const tiers = "/loyalties/:campaignId/tiers"
	// An array in, an array out.
	v1.POST(tiers, auth, httpkit.Write(httpkit.WithParamAndBody("campaignId", h.root.Mutation().CreateLoyaltyV1Tiers), tiersJSON))
	// limit, order.
	v1.GET(tiers, auth, httpkit.Read(httpkit.WithParamAndQuery("campaignId", func(c *gin.Context) (*loyaltyv1.TierListInput, error) {
		limit, err := httpkit.QueryInt(c, "limit")
		if err != nil {
			return nil, err
		}
		in := &loyaltyv1.TierListInput{Limit: limit}
		httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
		return in, nil
	}, h.root.Query().LoyaltyV1TierList), func(res *loyaltyv1.TierList) gin.H {
		return gin.H{"object": "list", "data_ref": "data", "data": tiersJSON(res.Data), "total": res.Total}
	}))
	v1.GET(tiers+"/:loyaltyTierId", auth, httpkit.Read(httpkit.ByParams("campaignId", "loyaltyTierId", h.root.Query().LoyaltyV1Tier), loyaltyTierJSON))
	v1.GET(tiers+"/:loyaltyTierId/earning-rules", auth, h.tierEarningRules)
	v1.GET("/loyalties/members/:memberId/tiers", auth, h.memberTiers)
}

// loyaltyTierJSON is the v1 LoyaltyTier object; points and config.points carry
// the same range.
func loyaltyTierJSON(t *ent.LoyaltyTier) gin.H {
	points := gin.H{"from": t.PointsFrom, "to": t.PointsTo}
	return gin.H{"id": t.ID, "name": t.Name, "campaign_id": t.CampaignID, "metadata": t.Metadata,
		"created_at": httpkit.Timestamp(t.CreatedAt), "updated_at": httpkit.OptionalTime(t.UpdatedAt),
		"earning_rules": httpkit.OrEmpty(t.EarningRules), "rewards": httpkit.OrEmpty(t.Rewards),
		"config": gin.H{"points": points}, "points": points, "object": "loyalty_tier"}
}

func tiersJSON(ts []*ent.LoyaltyTier) []gin.H {
	out := make([]gin.H, len(ts))
	for i, t := range ts {
		out[i] = loyaltyTierJSON(t)
	}
	return out
}

// memberTiers serves GET /v1/loyalties/members/{memberId}/tiers.
func (h loyaltyV1Handlers) memberTiers(c *gin.Context) {
	holds, err := h.root.Query().LoyaltyV1MemberTierHolds(c.Request.Context(), c.Param("memberId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	data := make([]gin.H, len(holds))
	for i, hold := range holds {
		data[i] = loyaltyTierJSON(hold.Tier)
		if x := hold.Expiration; x != nil {
			exp := gin.H{"customer_id": x.CustomerID, "campaign_id": x.CampaignID, "tier_id": x.TierID,
				"created_at": httpkit.Timestamp(x.CreatedAt)}
			if x.UpdatedAt != nil {
				exp["updated_at"] = httpkit.Timestamp(*x.UpdatedAt)
			}
			if x.StartDate != nil {
				exp["start_date"] = *x.StartDate
			}
			if x.ExpirationDate != nil {
				exp["expiration_date"] = *x.ExpirationDate
			}
			data[i]["expiration"] = exp
		}
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": data, "total": len(holds)})
}

// tierEarningRules serves GET …/tiers/{loyaltyTierId}/earning-rules.
func (h loyaltyV1Handlers) tierEarningRules(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1TierEarningRules(c.Request.Context(), c.Param("campaignId"), c.Param("loyaltyTierId"),
		&loyaltyv1.EarningRuleListInput{Limit: limit, Page: page})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, earningRuleList(res))
}
