// Package rewards serves the v1 rewards (/v1/rewards: CAMPAIGN, COIN and
// MATERIAL rewards, SDK rewards.*) and their assignments to loyalty and
// referral campaigns through the graph's resolvers (graph/reward), and
// renders the reward and assignment objects that the loyalty side of the
// v1 API shows (JSON, AssignmentJSON, AssignmentsJSON, AssignmentList;
// ListOp reads a list's query).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package rewards

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/reward"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Register mounts /v1/rewards and its assignments on v1, each one
// resolver call behind auth (the v1 keys or a bearer token); root is the
// router's resolver. Deletes answer 204.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	q, m := root.Query(), root.Mutation()
	v1.GET("/rewards", auth, httpkit.Read(httpkit.WithQuery(listInput("assignment_id"), q.V1RewardList), rewardList))
	v1.POST("/rewards", auth, httpkit.Write(httpkit.WithBody(m.CreateV1Reward), JSON))
	v1.GET("/rewards/:rewardId", auth, httpkit.Read(httpkit.ByParam("rewardId", q.V1Reward), JSON))
	v1.PUT("/rewards/:rewardId", auth, httpkit.Write(httpkit.WithParamAndBody("rewardId", m.UpdateV1Reward), JSON))
	v1.DELETE("/rewards/:rewardId", auth, httpkit.NoContent(httpkit.ByParam("rewardId", m.DeleteV1Reward)))

	const assignment = "/rewards/:rewardId/assignments/:assignmentId"
	v1.GET("/rewards/:rewardId/assignments", auth, httpkit.Read(ListOp("rewardId", "assignment_id", q.V1RewardAssignmentList), AssignmentList))
	v1.POST("/rewards/:rewardId/assignments", auth, httpkit.Write(httpkit.WithParamAndBody("rewardId", m.CreateV1RewardAssignment), AssignmentJSON))
	v1.GET(assignment, auth, httpkit.Read(httpkit.ByParams("rewardId", "assignmentId", q.V1RewardAssignment), AssignmentJSON))
	v1.PUT(assignment, auth, httpkit.Write(httpkit.WithParamsAndBody("rewardId", "assignmentId", m.UpdateV1RewardAssignment), AssignmentJSON))
	v1.DELETE(assignment, auth, httpkit.NoContent(httpkit.ByParams("rewardId", "assignmentId", m.DeleteV1RewardAssignment)))
}

// Body is the real service's reward object.
type Body struct {
	ID         string             `json:"id"`
	Name       string             `json:"name"`
	Type       string             `json:"type"`
	Parameters map[string]any     `json:"parameters"`
	Stock      *int64             `json:"stock"`
	Redeemed   *int64             `json:"redeemed"`
	Attributes map[string]any     `json:"attributes"`
	Metadata   map[string]any     `json:"metadata"`
	CreatedAt  httpkit.Timestamp  `json:"created_at"`
	UpdatedAt  *httpkit.Timestamp `json:"updated_at"`
	Object     string             `json:"object"`
}

// JSON renders a v1 reward (redeemed only for MATERIAL rewards).
func JSON(r *ent.V1Reward) Body {
	out := Body{ID: r.ID, Name: r.Name, Type: r.Type, Parameters: httpkit.OrEmpty(r.Parameters), Stock: r.Stock,
		Attributes: httpkit.OrEmpty(r.Attributes), Metadata: r.Metadata, CreatedAt: httpkit.Timestamp(r.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(r.UpdatedAt), Object: "reward"}
	if r.Type == reward.TypeMaterial {
		redeemed := r.Redeemed
		out.Redeemed = &redeemed
	}
	return out
}

// AssignmentBody is the real service's reward_assignment object; COIN
// assignments have no parameters.
type AssignmentBody struct {
	ID                string             `json:"id"`
	RewardID          string             `json:"reward_id"`
	RelatedObjectID   string             `json:"related_object_id"`
	RelatedObjectType string             `json:"related_object_type"`
	Parameters        map[string]any     `json:"parameters,omitempty"`
	CreatedAt         httpkit.Timestamp  `json:"created_at"`
	UpdatedAt         *httpkit.Timestamp `json:"updated_at"`
	Object            string             `json:"object"`
}

// AssignmentJSON renders a reward assignment.
func AssignmentJSON(a *ent.V1RewardAssignment) AssignmentBody {
	out := AssignmentBody{ID: a.ID, RewardID: a.RewardID, RelatedObjectID: a.CampaignID,
		RelatedObjectType: a.RelatedObjectType, CreatedAt: httpkit.Timestamp(a.CreatedAt), UpdatedAt: httpkit.OptionalTime(a.UpdatedAt),
		Object: "reward_assignment"}
	if a.Points != nil {
		out.Parameters = map[string]any{"loyalty": map[string]any{"points": *a.Points, "auto_redeem": a.AutoRedeem}}
	}
	return out
}

// AssignmentsJSON renders reward assignments as an array.
func AssignmentsJSON(as []*ent.V1RewardAssignment) []AssignmentBody {
	out := make([]AssignmentBody, len(as))
	for i, a := range as {
		out[i] = AssignmentJSON(a)
	}
	return out
}

// AssignmentList renders a page of assignments as a v1 list.
func AssignmentList(res *reward.AssignmentList) any {
	return httpkit.NewList(AssignmentsJSON(res.Data), res.Total)
}

// rewardList renders a page of rewards as a v1 list.
func rewardList(res *reward.RewardList) any {
	out := make([]Body, len(res.Data))
	for i, r := range res.Data {
		out[i] = JSON(r)
	}
	return httpkit.NewList(out, res.Total)
}

// ListOp is the Op of a list under the path parameter param (a reward, a
// loyalty campaign) whose query is a page (limit, page) and the
// assignment filter named filter.
func ListOp[T any](param, filter string, fn func(ctx context.Context, id string, in *reward.ListInput) (T, error)) httpkit.Op[T] {
	return httpkit.WithParamAndQuery(param, listInput(filter), fn)
}

// listInput reads limit, page and the assignment filter (named
// assignment_id, or assignmentId on the loyalty side).
func listInput(filter string) func(c *gin.Context) (*reward.ListInput, error) {
	return func(c *gin.Context) (*reward.ListInput, error) {
		limit, page, err := httpkit.LimitAndPage(c)
		if err != nil {
			return nil, err
		}
		in := &reward.ListInput{Limit: limit, Page: page}
		httpkit.QueryStrings(c, map[string]**string{filter: &in.AssignmentID})
		return in, nil
	}
}
