package reward

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

type predicateAssignment = predicate.V1RewardAssignment

// RewardList is a page of rewards and how many match in all.
type RewardList struct {
	Total int             `json:"total"`
	Data  []*ent.V1Reward `json:"data"`
}

// AssignmentList is a page of reward assignments and how many match in all.
type AssignmentList struct {
	Total int                       `json:"total"`
	Data  []*ent.V1RewardAssignment `json:"data"`
}

func bounds(in *ListInput) (limit, offset int, err error) {
	if in == nil {
		return page.Offset(nil, nil)
	}
	return page.Offset(in.Limit, in.Page)
}

// ListRewards serves REST GET /v1/rewards and v1RewardList: newest first;
// assignment_id keeps the reward of that assignment.
func ListRewards(ctx context.Context, in *ListInput) (*RewardList, error) {
	limit, offset, err := bounds(in)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.V1Reward.Query()
	if in != nil && in.AssignmentID != nil && *in.AssignmentID != "" {
		ids, err := c.V1RewardAssignment.Query().Where(v1rewardassignment.ID(*in.AssignmentID)).
			Select(v1rewardassignment.FieldRewardID).Strings(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading reward assignment: %w", err)
		}
		q.Where(v1reward.IDIn(ids...))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting rewards: %w", err)
	}
	data, err := q.Order(ent.Desc(v1reward.FieldCreatedAt), ent.Desc(v1reward.FieldID)).Limit(limit).Offset(offset).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing rewards: %w", err)
	}
	return &RewardList{Total: total, Data: data}, nil
}

// ListAssignments serves REST GET /v1/rewards/{rewardId}/assignments.
func ListAssignments(ctx context.Context, rewardID string, in *ListInput) (*AssignmentList, error) {
	if _, err := Reward(ctx, rewardID); err != nil {
		return nil, err
	}
	return listAssignments(ctx, in, v1rewardassignment.RewardID(rewardID))
}

// listAssignments pages the assignments matching ps, newest first.
func listAssignments(ctx context.Context, in *ListInput, ps ...predicateAssignment) (*AssignmentList, error) {
	limit, offset, err := bounds(in)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.V1RewardAssignment.Query().Where(ps...)
	if in != nil && in.AssignmentID != nil && *in.AssignmentID != "" {
		q.Where(v1rewardassignment.ID(*in.AssignmentID))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting reward assignments: %w", err)
	}
	data, err := q.Order(ent.Desc(v1rewardassignment.FieldCreatedAt), ent.Desc(v1rewardassignment.FieldID)).
		Limit(limit).Offset(offset).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing reward assignments: %w", err)
	}
	return &AssignmentList{Total: total, Data: data}, nil
}
