package loyaltyv1

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerLoyaltyV1EarningRules adds /v1/loyalties/{campaignId}/earning-rules….
func registerLoyaltyV1EarningRules(v1 *gin.RouterGroup, auth gin.HandlerFunc, h loyaltyV1Handlers) {
	const rules, campaign, rule = "/loyalties/:campaignId/earning-rules", "campaignId", "earningRuleId"
	q, m := h.root.Query(), h.root.Mutation()
	// An array in, an array out.
	v1.POST(rules, auth, httpkit.Write(httpkit.WithParamAndBody(campaign, m.CreateLoyaltyV1EarningRules), earningRulesJSON))
	v1.GET(rules, auth, httpkit.Read(httpkit.WithParamAndQuery(campaign, earningRuleListParams, q.LoyaltyV1EarningRuleList), earningRuleList))
	v1.GET(rules+"/:earningRuleId", auth, httpkit.Read(httpkit.ByParams(campaign, rule, q.LoyaltyV1EarningRule), v1EarningRuleJSON))
	v1.PUT(rules+"/:earningRuleId", auth, httpkit.Write(httpkit.Decoded(
		func(c *gin.Context, ctx context.Context, in loyaltyv1.EarningRuleInput) (*ent.CampaignEarningRule, error) {
			in.Event, in.CustomEvent, in.Segment, in.LoyaltyTier = nil, nil, nil, nil // cannot change
			return m.UpdateLoyaltyV1EarningRule(ctx, c.Param(campaign), c.Param(rule), in)
		}), v1EarningRuleJSON))
	v1.DELETE(rules+"/:earningRuleId", auth, httpkit.NoContent(httpkit.ByParams(campaign, rule, m.DeleteLoyaltyV1EarningRule)))
	// The SDK sends {}.
	for _, verb := range []string{"enable", "disable"} {
		active := verb == "enable"
		v1.POST(rules+"/:earningRuleId/"+verb, auth, httpkit.Write(httpkit.Bound(func(c *gin.Context, ctx context.Context) (*ent.CampaignEarningRule, error) {
			return m.SetLoyaltyV1EarningRuleActive(ctx, c.Param(campaign), c.Param(rule), active)
		}), v1EarningRuleJSON))
	}
}

// v1EarningRuleJSON is the v1 EarningRule object: optional objects and
// dates are left out when unset; updated_at and validation_rule_id are
// always present.
func v1EarningRuleJSON(r *ent.CampaignEarningRule) gin.H {
	out := gin.H{"id": r.ID, "created_at": httpkit.Timestamp(r.CreatedAt), "updated_at": httpkit.OptionalTime(r.UpdatedAt),
		"validation_rule_id": r.ValidationRuleID, "loyalty": r.Loyalty, "event": r.Event, "source": httpkit.OrEmpty(r.Source),
		"active": r.Active, "metadata": httpkit.OrEmpty(r.Metadata), "automation_id": r.AutomationID, "object": "earning_rule"}
	for k, v := range map[string]map[string]any{"custom_event": r.CustomEvent, "segment": r.Segment,
		"loyalty_tier": r.LoyaltyTier, "pending_points": r.PendingPoints, "expiration_rules": r.ExpirationRules,
		"validity_timeframe": r.ValidityTimeframe, "validity_hours": r.ValidityHours} {
		if v != nil {
			out[k] = v
		}
	}
	if r.ValidityDayOfWeek != nil {
		out["validity_day_of_week"] = r.ValidityDayOfWeek
	}
	if r.StartDate != nil {
		out["start_date"] = httpkit.Timestamp(*r.StartDate)
	}
	if r.ExpirationDate != nil {
		out["expiration_date"] = httpkit.Timestamp(*r.ExpirationDate)
	}
	return out
}

// earningRuleListParams reads GET …/earning-rules' query: limit, page, order.
func earningRuleListParams(c *gin.Context) (*loyaltyv1.EarningRuleListInput, error) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		return nil, err
	}
	in := &loyaltyv1.EarningRuleListInput{Limit: limit, Page: page}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	return in, nil
}

// earningRuleList renders a page of earning rules as a v1 list.
func earningRuleList(res *loyaltyv1.EarningRuleList) gin.H {
	return gin.H{"object": "list", "data_ref": "data", "data": earningRulesJSON(res.Data), "total": res.Total}
}

// earningRulesJSON renders earning rules as an array.
func earningRulesJSON(rs []*ent.CampaignEarningRule) []gin.H {
	out := make([]gin.H, len(rs))
	for i, r := range rs {
		out[i] = v1EarningRuleJSON(r)
	}
	return out
}
