package reward

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
)

// MemberRedemptionInput is the body of REST POST
// /v1/loyalties[/{campaignId}]/members/{memberId}/redemption.
type MemberRedemptionInput struct {
	Reward   *MemberRewardInput     `json:"reward"`
	Order    *redemption.OrderInput `json:"order"`
	Metadata map[string]any         `json:"metadata"`
}

// MemberRewardInput names the reward (rew_, assigned to the card's
// campaign) and, optionally, its assignment.
type MemberRewardInput struct {
	ID           *string `json:"id"`
	Points       *int64  `json:"points"`
	AssignmentID *string `json:"assignment_id"`
}

// RedeemReward serves REST POST /v1/loyalties[/{campaignId}]/members/{memberId}/redemption
// and redeemV1Reward: the member's card is redeemed for the reward (one
// redemption through graph/redemption, which locks the card, checks and
// deducts the assignment's points with one POINTS_REDEMPTION transaction,
// and calls Issue for what the reward gives), in one transaction. The
// card's holder is the redeeming customer. A refusal (not enough points,
// no stock, …) is an error and writes nothing.
func RedeemReward(ctx context.Context, campaignRef *string, memberCode string, in MemberRedemptionInput) (*ent.Redemption, error) {
	if in.Reward == nil || in.Reward.ID == nil || *in.Reward.ID == "" {
		return nil, apperr.New(http.StatusBadRequest, "missing_reward", "Missing reward", "Property 'reward.id' is required")
	}
	if in.Reward.Points != nil && *in.Reward.Points < 1 {
		return nil, apperr.InvalidPayload("Property 'reward.points' must be a positive integer")
	}
	rewardID := *in.Reward.ID
	var out *ent.Redemption
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		v, err := member(ctx, campaignRef, memberCode)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(rewardID, pulid.PrefixRewardV1) {
			return apperr.NotFound("reward", rewardID)
		}
		if _, err := Reward(ctx, rewardID); err != nil {
			return err
		}
		if id := in.Reward.AssignmentID; id != nil && *id != "" {
			a, err := assignmentWhere(ctx, *id)
			if err != nil {
				return err
			}
			if a.RewardID != rewardID || v.CampaignID == nil || a.CampaignID != *v.CampaignID {
				return apperr.InvalidPayload("Reward assignment %s is not the assignment of reward %s to the card's campaign", a.ID, rewardID)
			}
		}
		req := &redemption.VoucherRedemptionInput{Order: in.Order, Metadata: in.Metadata,
			Reward: &redemption.RewardRedeemInput{ID: &rewardID, Points: in.Reward.Points}}
		if v.HolderID != nil {
			req.Customer = &customer.CustomerInput{ID: v.HolderID}
		}
		res, err := redemption.RedeemVoucher(ctx, v.Code, req)
		if err != nil {
			return err
		}
		if f := res.Failure; f != nil {
			e := &apperr.Error{Code: f.Code, Key: f.Key, Message: f.Message}
			if f.Details != nil {
				e.Details = *f.Details
			}
			if f.ResourceID != nil && f.ResourceType != nil {
				e.ResourceID, e.ResourceType = *f.ResourceID, *f.ResourceType
			}
			return e
		}
		if res.Redemption == nil {
			return fmt.Errorf("redeeming reward: no redemption")
		}
		out = res.Redemption
		return nil
	})
	return out, err
}
