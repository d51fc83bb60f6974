package reward

import (
	"context"
	"strconv"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	campaigns "github.com/promoengine/promoengine/graph/campaign"
)

// The loyalty side of the assignments: /v1/loyalties/{campaignId}/rewards
// and …/reward-assignments name a loyalty campaign (id or name) and serve
// its assignments with the same use cases as /v1/rewards/{rewardId}/assignments.

// loyaltyCampaign finds a v1 loyalty campaign by id or name; any other
// campaign is not one (404).
func loyaltyCampaign(ctx context.Context, idOrName string) (*ent.Campaign, error) {
	cmp, err := campaigns.ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if cmp.CampaignType != campaign.CampaignTypeLOYALTY_PROGRAM {
		return nil, apperr.NotFound("campaign", idOrName)
	}
	return cmp, nil
}

// CampaignAssignments serves REST GET /v1/loyalties/{campaignId}/rewards
// and …/reward-assignments: the campaign's assignments, newest first.
func CampaignAssignments(ctx context.Context, campaignRef string, in *ListInput) (*AssignmentList, error) {
	cmp, err := loyaltyCampaign(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	return listAssignments(ctx, in, v1rewardassignment.CampaignID(cmp.ID))
}

// CreateCampaignAssignments serves REST POST /v1/loyalties/{campaignId}/rewards:
// several rewards assigned at once, all or none.
func CreateCampaignAssignments(ctx context.Context, campaignRef string, in []*AssignmentInput) ([]*ent.V1RewardAssignment, error) {
	cmp, err := loyaltyCampaign(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 {
		return nil, apperr.InvalidPayload("The body must be a non-empty array of reward assignments")
	}
	if len(in) > 100 {
		return nil, apperr.InvalidPayload("At most 100 reward assignments at once")
	}
	out := make([]*ent.V1RewardAssignment, 0, len(in))
	for i, item := range in {
		if item == nil || item.Reward == nil || *item.Reward == "" {
			return nil, missingParam("[" + strconv.Itoa(i) + "].reward")
		}
		r, err := Reward(ctx, *item.Reward)
		if err != nil {
			return nil, err
		}
		a, err := assign(ctx, r, cmp, *item)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// CampaignAssignment serves REST GET /v1/loyalties/{campaignId}/rewards/{assignmentId}
// and …/reward-assignments/{assignmentId}.
func CampaignAssignment(ctx context.Context, campaignRef, id string) (*ent.V1RewardAssignment, error) {
	cmp, err := loyaltyCampaign(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	return assignmentWhere(ctx, id, v1rewardassignment.CampaignID(cmp.ID))
}

// UpdateCampaignAssignment serves REST PUT /v1/loyalties/{campaignId}/rewards/{assignmentId}.
func UpdateCampaignAssignment(ctx context.Context, campaignRef, id string, in AssignmentInput) (*ent.V1RewardAssignment, error) {
	a, err := CampaignAssignment(ctx, campaignRef, id)
	if err != nil {
		return nil, err
	}
	return updateAssignment(ctx, a, in)
}

// DeleteCampaignAssignment serves REST DELETE /v1/loyalties/{campaignId}/rewards/{assignmentId}.
func DeleteCampaignAssignment(ctx context.Context, campaignRef, id string) (string, error) {
	a, err := CampaignAssignment(ctx, campaignRef, id)
	if err != nil {
		return "", err
	}
	return deleteAssignment(ctx, a)
}

// AssignmentReward serves REST GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward.
func AssignmentReward(ctx context.Context, campaignRef, id string) (*ent.V1Reward, error) {
	a, err := CampaignAssignment(ctx, campaignRef, id)
	if err != nil {
		return nil, err
	}
	return Reward(ctx, a.RewardID)
}
