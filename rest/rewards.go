package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/reward"
)

// rewardHandlers serve /v1/rewards (SDK: rewards.*) and the loyalty side
// of reward assignments and redemptions (loyalty_rewards.go) through the
// GraphQL resolvers of graph/schema/rewards.graphqls.
type rewardHandlers struct {
	root        *graph.Resolver
	redemptions redemptionHandlers
}

// registerRewards mounts /v1/rewards and its assignments.
func registerRewards(v1 *gin.RouterGroup, auth gin.HandlerFunc, h rewardHandlers) {
	v1.GET("/rewards", auth, h.list)
	v1.POST("/rewards", auth, h.create)
	v1.GET("/rewards/:rewardId", auth, h.get)
	v1.PUT("/rewards/:rewardId", auth, h.update)
	v1.DELETE("/rewards/:rewardId", auth, h.delete)
	v1.GET("/rewards/:rewardId/assignments", auth, h.listAssignments)
	v1.POST("/rewards/:rewardId/assignments", auth, h.createAssignment)
	v1.GET("/rewards/:rewardId/assignments/:assignmentId", auth, h.getAssignment)
	v1.PUT("/rewards/:rewardId/assignments/:assignmentId", auth, h.updateAssignment)
	v1.DELETE("/rewards/:rewardId/assignments/:assignmentId", auth, h.deleteAssignment)
	registerLoyaltyRewards(v1, auth, h)
}

// rewardBody is the real service's reward object.
type rewardBody struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Parameters map[string]any `json:"parameters"`
	Stock      *int64         `json:"stock"`
	Redeemed   *int64         `json:"redeemed"`
	Attributes map[string]any `json:"attributes"`
	Metadata   map[string]any `json:"metadata"`
	CreatedAt  timestamp      `json:"created_at"`
	UpdatedAt  *timestamp     `json:"updated_at"`
	Object     string         `json:"object"`
}

func rewardJSONv1(r *ent.V1Reward) rewardBody {
	out := rewardBody{ID: r.ID, Name: r.Name, Type: r.Type, Parameters: orEmpty(r.Parameters), Stock: r.Stock,
		Attributes: orEmpty(r.Attributes), Metadata: r.Metadata, CreatedAt: timestamp(r.CreatedAt),
		UpdatedAt: optionalTime(r.UpdatedAt), Object: "reward"}
	if r.Type == reward.TypeMaterial {
		redeemed := r.Redeemed
		out.Redeemed = &redeemed
	}
	return out
}

// assignmentBody is the real service's reward_assignment object; COIN
// assignments have no parameters.
type assignmentBody struct {
	ID                string         `json:"id"`
	RewardID          string         `json:"reward_id"`
	RelatedObjectID   string         `json:"related_object_id"`
	RelatedObjectType string         `json:"related_object_type"`
	Parameters        map[string]any `json:"parameters,omitempty"`
	CreatedAt         timestamp      `json:"created_at"`
	UpdatedAt         *timestamp     `json:"updated_at"`
	Object            string         `json:"object"`
}

func assignmentJSON(a *ent.V1RewardAssignment) assignmentBody {
	out := assignmentBody{ID: a.ID, RewardID: a.RewardID, RelatedObjectID: a.CampaignID,
		RelatedObjectType: a.RelatedObjectType, CreatedAt: timestamp(a.CreatedAt), UpdatedAt: optionalTime(a.UpdatedAt),
		Object: "reward_assignment"}
	if a.Points != nil {
		out.Parameters = map[string]any{"loyalty": map[string]any{"points": *a.Points, "auto_redeem": a.AutoRedeem}}
	}
	return out
}

func assignmentsJSON(as []*ent.V1RewardAssignment) []assignmentBody {
	out := make([]assignmentBody, len(as))
	for i, a := range as {
		out[i] = assignmentJSON(a)
	}
	return out
}

// rewardListInput reads limit, page and the assignment filter (named
// assignment_id, or assignmentId on the loyalty side).
func rewardListInput(c *gin.Context, assignmentParam string) (*reward.ListInput, error) {
	limit, page, err := limitAndPage(c)
	if err != nil {
		return nil, err
	}
	in := &reward.ListInput{Limit: limit, Page: page}
	queryStrings(c, map[string]**string{assignmentParam: &in.AssignmentID})
	return in, nil
}

// list serves GET /v1/rewards.
func (h rewardHandlers) list(c *gin.Context) {
	in, err := rewardListInput(c, "assignment_id")
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().V1RewardList(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]rewardBody, len(res.Data))
	for i, r := range res.Data {
		out[i] = rewardJSONv1(r)
	}
	c.PureJSON(http.StatusOK, newList(out, res.Total))
}

// create serves POST /v1/rewards.
func (h rewardHandlers) create(c *gin.Context) {
	var in reward.RewardInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	r, err := inTx(c, func(ctx context.Context) (*ent.V1Reward, error) { return h.root.Mutation().CreateV1Reward(ctx, in) })
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewardJSONv1(r))
}

// get serves GET /v1/rewards/{rewardId}.
func (h rewardHandlers) get(c *gin.Context) {
	r, err := h.root.Query().V1Reward(c.Request.Context(), c.Param("rewardId"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewardJSONv1(r))
}

// update serves PUT /v1/rewards/{rewardId}.
func (h rewardHandlers) update(c *gin.Context) {
	var in reward.RewardInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	r, err := inTx(c, func(ctx context.Context) (*ent.V1Reward, error) {
		return h.root.Mutation().UpdateV1Reward(ctx, c.Param("rewardId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewardJSONv1(r))
}

// delete serves DELETE /v1/rewards/{rewardId}: 204.
func (h rewardHandlers) delete(c *gin.Context) {
	_, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteV1Reward(ctx, c.Param("rewardId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// listAssignments serves GET /v1/rewards/{rewardId}/assignments.
func (h rewardHandlers) listAssignments(c *gin.Context) {
	in, err := rewardListInput(c, "assignment_id")
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().V1RewardAssignmentList(c.Request.Context(), c.Param("rewardId"), in)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, newList(assignmentsJSON(res.Data), res.Total))
}

// createAssignment serves POST /v1/rewards/{rewardId}/assignments.
func (h rewardHandlers) createAssignment(c *gin.Context) {
	var in reward.AssignmentInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	a, err := inTx(c, func(ctx context.Context) (*ent.V1RewardAssignment, error) {
		return h.root.Mutation().CreateV1RewardAssignment(ctx, c.Param("rewardId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, assignmentJSON(a))
}

// getAssignment serves GET /v1/rewards/{rewardId}/assignments/{assignmentId}.
func (h rewardHandlers) getAssignment(c *gin.Context) {
	a, err := h.root.Query().V1RewardAssignment(c.Request.Context(), c.Param("rewardId"), c.Param("assignmentId"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, assignmentJSON(a))
}

// updateAssignment serves PUT /v1/rewards/{rewardId}/assignments/{assignmentId}.
func (h rewardHandlers) updateAssignment(c *gin.Context) {
	var in reward.AssignmentInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	a, err := inTx(c, func(ctx context.Context) (*ent.V1RewardAssignment, error) {
		return h.root.Mutation().UpdateV1RewardAssignment(ctx, c.Param("rewardId"), c.Param("assignmentId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, assignmentJSON(a))
}

// deleteAssignment serves DELETE /v1/rewards/{rewardId}/assignments/{assignmentId}: 204.
func (h rewardHandlers) deleteAssignment(c *gin.Context) {
	_, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteV1RewardAssignment(ctx, c.Param("rewardId"), c.Param("assignmentId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
