package loyaltyv1

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/reward"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/rewards"
)

// rewardHandlers serve the loyalty side of v1 rewards (rest/rewards
// serves /v1/rewards) through the GraphQL resolvers of
// graph/schema/rewards.graphqls.
type rewardHandlers struct {
	root       *graph.Resolver
	redemption func(c *gin.Context, r *ent.Redemption) any
}

// registerLoyaltyRewards mounts the loyalty side of v1 rewards (SDK:
// loyalties.listRewardAssignments, createRewardAssignments,
// getRewardAssignment, updateRewardAssignment, deleteRewardAssignment,
// getRewardDetails, listMemberRewards, redeemReward). {campaignId} is a
// loyalty campaign's id or name; {memberId} is a card's code.
func registerLoyaltyRewards(v1 *gin.RouterGroup, auth gin.HandlerFunc, h rewardHandlers) {
	v1.GET("/loyalties/:campaignId/rewards", auth, h.campaignAssignments("assignment_id"))
	v1.POST("/loyalties/:campaignId/rewards", auth, h.createCampaignAssignments)
	v1.GET("/loyalties/:campaignId/rewards/:assignmentId", auth, h.campaignAssignment)
	v1.PUT("/loyalties/:campaignId/rewards/:assignmentId", auth, h.updateCampaignAssignment)
	v1.DELETE("/loyalties/:campaignId/rewards/:assignmentId", auth, h.deleteCampaignAssignment)
	v1.GET("/loyalties/:campaignId/reward-assignments", auth, h.campaignAssignments("assignmentId"))
	v1.GET("/loyalties/:campaignId/reward-assignments/:assignmentId", auth, h.campaignAssignment)
	v1.GET("/loyalties/:campaignId/reward-assignments/:assignmentId/reward", auth, h.assignmentReward)
	v1.GET("/loyalties/members/:memberId/rewards", auth, h.memberRewards)
	v1.POST("/loyalties/:campaignId/members/:memberId/redemption", auth, h.redeemReward)
	v1.POST("/loyalties/members/:memberId/redemption", auth, h.redeemReward)
}

// campaignAssignments serves GET /v1/loyalties/{campaignId}/rewards and
// …/reward-assignments (whose filter is named assignmentId).
func (h rewardHandlers) campaignAssignments(filter string) gin.HandlerFunc {
	return func(c *gin.Context) {
		in, err := rewards.ListInput(c, filter)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		res, err := h.root.Query().V1LoyaltyRewardAssignmentList(c.Request.Context(), c.Param("campaignId"), in)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, httpkit.NewList(rewards.AssignmentsJSON(res.Data), res.Total))
	}
}

// createCampaignAssignments serves POST /v1/loyalties/{campaignId}/rewards:
// an array of {reward, parameters} answered with the array of assignments.
func (h rewardHandlers) createCampaignAssignments(c *gin.Context) {
	var in []*reward.AssignmentInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	as, err := httpkit.InTx(c, func(ctx context.Context) ([]*ent.V1RewardAssignment, error) {
		return h.root.Mutation().CreateV1LoyaltyRewardAssignments(ctx, c.Param("campaignId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewards.AssignmentsJSON(as))
}

// campaignAssignment serves GET /v1/loyalties/{campaignId}/rewards/{assignmentId}
// and …/reward-assignments/{assignmentId}.
func (h rewardHandlers) campaignAssignment(c *gin.Context) {
	a, err := h.root.Query().V1LoyaltyRewardAssignment(c.Request.Context(), c.Param("campaignId"), c.Param("assignmentId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewards.AssignmentJSON(a))
}

// updateCampaignAssignment serves PUT /v1/loyalties/{campaignId}/rewards/{assignmentId}.
func (h rewardHandlers) updateCampaignAssignment(c *gin.Context) {
	var in reward.AssignmentInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	a, err := httpkit.InTx(c, func(ctx context.Context) (*ent.V1RewardAssignment, error) {
		return h.root.Mutation().UpdateV1LoyaltyRewardAssignment(ctx, c.Param("campaignId"), c.Param("assignmentId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewards.AssignmentJSON(a))
}

// deleteCampaignAssignment serves DELETE /v1/loyalties/{campaignId}/rewards/{assignmentId}: 204.
func (h rewardHandlers) deleteCampaignAssignment(c *gin.Context) {
	_, err := httpkit.InTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteV1LoyaltyRewardAssignment(ctx, c.Param("campaignId"), c.Param("assignmentId"))
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// assignmentReward serves GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward.
func (h rewardHandlers) assignmentReward(c *gin.Context) {
	r, err := h.root.Query().V1LoyaltyAssignmentReward(c.Request.Context(), c.Param("campaignId"), c.Param("assignmentId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewards.JSON(r))
}

// memberRewardBody is one loyalty_reward of a member's list.
type memberRewardBody struct {
	Reward     rewards.Body           `json:"reward"`
	Assignment rewards.AssignmentBody `json:"assignment"`
	Object     string                 `json:"object"`
}

// memberRewards serves GET /v1/loyalties/members/{memberId}/rewards[?affordable_only=true].
func (h rewardHandlers) memberRewards(c *gin.Context) {
	var affordable *bool
	switch v := c.Query("affordable_only"); v {
	case "":
	case "true", "false":
		b := v == "true"
		affordable = &b
	default:
		httpkit.RenderError(c, apperr.InvalidQueryParams("Query parameter affordable_only must be true or false, got %q", v))
		return
	}
	res, err := h.root.Query().V1MemberRewards(c.Request.Context(), c.Param("memberId"), affordable)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := make([]memberRewardBody, len(res.Data))
	for i, m := range res.Data {
		out[i] = memberRewardBody{Reward: rewards.JSON(m.Reward), Assignment: rewards.AssignmentJSON(m.Assignment), Object: "loyalty_reward"}
	}
	c.PureJSON(http.StatusOK, httpkit.NewList(out, res.Total))
}

// redeemReward serves POST /v1/loyalties[/{campaignId}]/members/{memberId}/redemption:
// the redemption of the card for the reward (its own transaction).
func (h rewardHandlers) redeemReward(c *gin.Context) {
	var in reward.MemberRedemptionInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var campaign *string
	if id := c.Param("campaignId"); id != "" {
		campaign = &id
	}
	r, err := h.root.Mutation().RedeemV1Reward(c.Request.Context(), campaign, c.Param("memberId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.redemption(c, r))
}
