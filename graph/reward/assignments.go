package reward

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	campaigns "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateAssignment serves REST POST /v1/rewards/{rewardId}/assignments and
// createV1RewardAssignment: the reward assigned to a loyalty or referral
// campaign, once per campaign.
func CreateAssignment(ctx context.Context, rewardID string, in AssignmentInput) (*ent.V1RewardAssignment, error) {
	r, err := Reward(ctx, rewardID)
	if err != nil {
		return nil, err
	}
	if in.Campaign == nil || *in.Campaign == "" {
		return nil, missingParam("campaign")
	}
	cmp, err := programCampaign(ctx, *in.Campaign)
	if err != nil {
		return nil, err
	}
	return assign(ctx, r, cmp, in)
}

// assign stores the assignment of r to cmp after checking its parameters.
func assign(ctx context.Context, r *ent.V1Reward, cmp *ent.Campaign, in AssignmentInput) (*ent.V1RewardAssignment, error) {
	points, auto, err := checkAssignment(r, in, true)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "reward_assignment:"+cmp.ID); err != nil {
		return nil, err
	}
	existing, err := c.V1RewardAssignment.Query().
		Where(v1rewardassignment.RewardID(r.ID), v1rewardassignment.CampaignID(cmp.ID)).First(ctx)
	if err == nil {
		e := apperr.Duplicate("reward_assignment", fmt.Sprintf("Reward %s is already assigned to campaign %s (reward assignment %s)", r.ID, cmp.ID, existing.ID))
		e.ResourceID = existing.ID
		return nil, e
	}
	if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("reading assignments: %w", err)
	}
	if auto != nil && *auto {
		if err := oneAutoRedeem(ctx, c, cmp.ID, ""); err != nil {
			return nil, err
		}
	}
	create := c.V1RewardAssignment.Create().SetRewardID(r.ID).SetCampaignID(cmp.ID).SetNillablePoints(points).
		SetNillableAutoRedeem(auto)
	if len(in.ValidationRules) > 0 {
		create.SetValidationRules(in.ValidationRules)
	}
	a, err := create.Save(ctx)
	if err != nil {
		return nil, store.WrapErr("creating reward assignment", err)
	}
	return a, nil
}

// checkAssignment checks an assignment's parameters for the reward's type:
// points from 1 for CAMPAIGN and MATERIAL rewards (required on create), no
// loyalty parameters and at most one validation rule for COIN rewards.
func checkAssignment(r *ent.V1Reward, in AssignmentInput, create bool) (points *int64, auto *bool, err error) {
	var loyalty *AssignmentLoyaltyInput
	if in.Parameters != nil {
		loyalty = in.Parameters.Loyalty
	}
	if r.Type == TypeCoin {
		if loyalty != nil {
			return nil, nil, apperr.InvalidPayload("Property 'parameters.loyalty' is not allowed for a COIN reward")
		}
		if len(in.ValidationRules) > 1 {
			return nil, nil, apperr.InvalidPayload("Property 'validation_rules' may name at most one validation rule")
		}
		return nil, nil, nil
	}
	if len(in.ValidationRules) > 0 {
		return nil, nil, apperr.InvalidPayload("Property 'validation_rules' is only allowed for a COIN reward")
	}
	if loyalty == nil || loyalty.Points == nil {
		if create {
			return nil, nil, missingParam("parameters.loyalty")
		}
		if loyalty == nil {
			return nil, nil, nil
		}
		return nil, loyalty.AutoRedeem, nil
	}
	if *loyalty.Points < 1 || *loyalty.Points > maxPoints {
		return nil, nil, apperr.InvalidPayload("Property 'parameters.loyalty.points' must be an integer from 1 to %d", maxPoints)
	}
	return loyalty.Points, loyalty.AutoRedeem, nil
}

// oneAutoRedeem refuses a second auto-redeemed assignment in a campaign.
func oneAutoRedeem(ctx context.Context, c *ent.Client, campaignID, except string) error {
	q := c.V1RewardAssignment.Query().Where(v1rewardassignment.CampaignID(campaignID), v1rewardassignment.AutoRedeem(true))
	if except != "" {
		q.Where(v1rewardassignment.IDNEQ(except))
	}
	taken, err := q.Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading assignments: %w", err)
	}
	if taken {
		return apperr.InvalidPayload("Campaign %s already has a reward assignment with parameters.loyalty.auto_redeem true", campaignID)
	}
	return nil
}

// programCampaign finds a loyalty or referral campaign by id or name:
// rewards are assigned to those only.
func programCampaign(ctx context.Context, idOrName string) (*ent.Campaign, error) {
	cmp, err := campaigns.ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if cmp.CampaignType != campaign.CampaignTypeLOYALTY_PROGRAM && cmp.CampaignType != campaign.CampaignTypeREFERRAL_PROGRAM {
		return nil, apperr.InvalidPayload("Campaign %s is a %s campaign: rewards are assigned to LOYALTY_PROGRAM and REFERRAL_PROGRAM campaigns", cmp.ID, cmp.CampaignType)
	}
	return cmp, nil
}

// Assignment serves REST GET /v1/rewards/{rewardId}/assignments/{assignmentId}.
func Assignment(ctx context.Context, rewardID, id string) (*ent.V1RewardAssignment, error) {
	if _, err := Reward(ctx, rewardID); err != nil {
		return nil, err
	}
	return assignmentWhere(ctx, id, v1rewardassignment.RewardID(rewardID))
}

// assignmentWhere reads one assignment of the caller's project.
func assignmentWhere(ctx context.Context, id string, ps ...predicateAssignment) (*ent.V1RewardAssignment, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	a, err := c.V1RewardAssignment.Query().Where(v1rewardassignment.ID(id)).Where(ps...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("reward_assignment", id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading reward assignment: %w", err)
	}
	return a, nil
}

// UpdateAssignment serves REST PUT /v1/rewards/{rewardId}/assignments/{assignmentId}:
// the price in points and auto-redeem change.
func UpdateAssignment(ctx context.Context, rewardID, id string, in AssignmentInput) (*ent.V1RewardAssignment, error) {
	a, err := Assignment(ctx, rewardID, id)
	if err != nil {
		return nil, err
	}
	return updateAssignment(ctx, a, in)
}

func updateAssignment(ctx context.Context, a *ent.V1RewardAssignment, in AssignmentInput) (*ent.V1RewardAssignment, error) {
	if err := in.RefuseNull("parameters", "parameters.loyalty", "parameters.loyalty.points", "parameters.loyalty.auto_redeem"); err != nil {
		return nil, err
	}
	r, err := Reward(ctx, a.RewardID)
	if err != nil {
		return nil, err
	}
	points, auto, err := checkAssignment(r, in, false)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if auto != nil && *auto {
		if err := oneAutoRedeem(ctx, c, a.CampaignID, a.ID); err != nil {
			return nil, err
		}
	}
	upd := c.V1RewardAssignment.UpdateOne(a).SetNillablePoints(points).SetNillableAutoRedeem(auto)
	if len(in.ValidationRules) > 0 {
		upd.SetValidationRules(in.ValidationRules)
	} else if in.IsNull("validation_rules") {
		upd.ClearValidationRules()
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, store.WrapErr("updating reward assignment", err)
	}
	return out, nil
}

// DeleteAssignment serves REST DELETE /v1/rewards/{rewardId}/assignments/{assignmentId}.
func DeleteAssignment(ctx context.Context, rewardID, id string) (string, error) {
	a, err := Assignment(ctx, rewardID, id)
	if err != nil {
		return "", err
	}
	return deleteAssignment(ctx, a)
}

func deleteAssignment(ctx context.Context, a *ent.V1RewardAssignment) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if err := c.V1RewardAssignment.DeleteOne(a).Exec(ctx); err != nil {
		return "", store.WrapErr("deleting reward assignment", err)
	}
	return a.ID, nil
}
