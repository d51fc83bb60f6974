package loyaltyv1

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerLoyaltyV1EarningRules adds /v1/loyalties/{campaignId}/earning-rules….
func registerLoyaltyV1EarningRules(v1 *gin.RouterGroup, auth gin.HandlerFunc, h loyaltyV1Handlers) {
	const rules = "/loyalties/:campaignId/earning-rules"
	v1.POST(rules, auth, h.createEarningRules)
	v1.GET(rules, auth, h.listEarningRules)
	v1.GET(rules+"/:earningRuleId", auth, h.getEarningRule)
	v1.PUT(rules+"/:earningRuleId", auth, h.updateEarningRule)
	v1.DELETE(rules+"/:earningRuleId", auth, h.deleteEarningRule)
	v1.POST(rules+"/:earningRuleId/enable", auth, h.setEarningRuleActive(true))
	v1.POST(rules+"/:earningRuleId/disable", auth, h.setEarningRuleActive(false))
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

// createEarningRules serves POST …/earning-rules: an array in, an array out.
func (h loyaltyV1Handlers) createEarningRules(c *gin.Context) {
	var in []*loyaltyv1.EarningRuleInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	created, err := httpkit.InTx(c, func(ctx context.Context) ([]*ent.CampaignEarningRule, error) {
		return h.root.Mutation().CreateLoyaltyV1EarningRules(ctx, c.Param("campaignId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := make([]gin.H, len(created))
	for i, r := range created {
		out[i] = v1EarningRuleJSON(r)
	}
	c.PureJSON(http.StatusOK, out)
}

// listEarningRules serves GET …/earning-rules: limit, page, order.
func (h loyaltyV1Handlers) listEarningRules(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	in := loyaltyv1.EarningRuleListInput{Limit: limit, Page: page}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	res, err := h.root.Query().LoyaltyV1EarningRuleList(c.Request.Context(), c.Param("campaignId"), &in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	renderEarningRuleList(c, res)
}

// renderEarningRuleList answers with a v1 list of earning rules.
func renderEarningRuleList(c *gin.Context, res *loyaltyv1.EarningRuleList) {
	out := make([]gin.H, len(res.Data))
	for i, r := range res.Data {
		out[i] = v1EarningRuleJSON(r)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": out, "total": res.Total})
}

// getEarningRule serves GET …/earning-rules/{earningRuleId}.
func (h loyaltyV1Handlers) getEarningRule(c *gin.Context) {
	r, err := h.root.Query().LoyaltyV1EarningRule(c.Request.Context(), c.Param("campaignId"), c.Param("earningRuleId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, v1EarningRuleJSON(r))
}

// updateEarningRule serves PUT …/earning-rules/{earningRuleId}.
func (h loyaltyV1Handlers) updateEarningRule(c *gin.Context) {
	var in loyaltyv1.EarningRuleInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	in.Event, in.CustomEvent, in.Segment, in.LoyaltyTier = nil, nil, nil, nil // cannot change
	r, err := httpkit.InTx(c, func(ctx context.Context) (*ent.CampaignEarningRule, error) {
		return h.root.Mutation().UpdateLoyaltyV1EarningRule(ctx, c.Param("campaignId"), c.Param("earningRuleId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, v1EarningRuleJSON(r))
}

// setEarningRuleActive serves POST …/enable and …/disable (the SDK sends {}).
func (h loyaltyV1Handlers) setEarningRuleActive(active bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		r, err := httpkit.InTx(c, func(ctx context.Context) (*ent.CampaignEarningRule, error) {
			return h.root.Mutation().SetLoyaltyV1EarningRuleActive(ctx, c.Param("campaignId"), c.Param("earningRuleId"), active)
		})
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, v1EarningRuleJSON(r))
	}
}

// deleteEarningRule serves DELETE …/earning-rules/{earningRuleId}: 204.
func (h loyaltyV1Handlers) deleteEarningRule(c *gin.Context) {
	if _, err := httpkit.InTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteLoyaltyV1EarningRule(ctx, c.Param("campaignId"), c.Param("earningRuleId"))
	}); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
