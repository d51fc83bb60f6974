package loyaltyv1

import (
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
	q, m := h.root.Query(), h.root.Mutation()
	const campaign, assignment = "campaignId", "assignmentId"
	get := httpkit.Read(httpkit.ByParams(campaign, assignment, q.V1LoyaltyRewardAssignment), rewards.AssignmentJSON)
	v1.GET("/loyalties/:campaignId/rewards", auth, httpkit.Read(rewards.ListOp(campaign, "assignment_id", q.V1LoyaltyRewardAssignmentList), rewards.AssignmentList))
	// An array of {reward, parameters} answered with the array of assignments.
	v1.POST("/loyalties/:campaignId/rewards", auth, httpkit.Write(httpkit.WithParamAndBody(campaign, m.CreateV1LoyaltyRewardAssignments), rewards.AssignmentsJSON))
	v1.GET("/loyalties/:campaignId/rewards/:assignmentId", auth, get)
	v1.PUT("/loyalties/:campaignId/rewards/:assignmentId", auth,
		httpkit.Write(httpkit.WithParamsAndBody(campaign, assignment, m.UpdateV1LoyaltyRewardAssignment), rewards.AssignmentJSON))
	v1.DELETE("/loyalties/:campaignId/rewards/:assignmentId", auth, httpkit.NoContent(httpkit.ByParams(campaign, assignment, m.DeleteV1LoyaltyRewardAssignment)))
	// The same list with its filter named assignmentId.
	v1.GET("/loyalties/:campaignId/reward-assignments", auth, httpkit.Read(rewards.ListOp(campaign, "assignmentId", q.V1LoyaltyRewardAssignmentList), rewards.AssignmentList))
	v1.GET("/loyalties/:campaignId/reward-assignments/:assignmentId", auth, get)
	v1.GET("/loyalties/:campaignId/reward-assignments/:assignmentId/reward", auth,
		httpkit.Read(httpkit.ByParams(campaign, assignment, q.V1LoyaltyAssignmentReward), rewards.JSON))
	v1.GET("/loyalties/members/:memberId/rewards", auth, h.memberRewards)
	v1.POST("/loyalties/:campaignId/members/:memberId/redemption", auth, h.redeemReward)
	v1.POST("/loyalties/members/:memberId/redemption", auth, h.redeemReward)
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
