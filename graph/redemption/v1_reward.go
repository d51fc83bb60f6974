package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// rewardRef is the reward a loyalty card redemption spends points on: a v2
// reward (lrew_) or a v1 reward (rew_) with its assignment to the card's
// campaign.
type rewardRef struct {
	ID, Name string
	// Type and AssignmentID are set for v1 rewards.
	Type, AssignmentID string
}

// stored is the reward as the redemption row keeps it.
func (r *rewardRef) stored(points int64) map[string]any {
	out := map[string]any{"id": r.ID, "name": r.Name, "object": "reward", "points": points}
	if r.AssignmentID != "" {
		out["assignment_id"], out["type"] = r.AssignmentID, r.Type
	}
	return out
}

// checkV1Reward checks a loyalty card redemption of a v1 reward (rew_,
// /v1/rewards): the reward is assigned to the card's campaign, its price
// is the assignment's points (reward.points of the request is not needed),
// a MATERIAL reward has stock left, and the balance (after other sessions'
// locks) covers the price. A COIN reward's price is the points its
// discount on the order takes (coin.go).
func (e *evaluation) checkV1Reward(ctx context.Context, s *redeemableState, held heldAmounts) (*checkFailure, error) {
	id := *s.input.Reward.ID
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rw, err := c.V1Reward.Query().Where(v1reward.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return notFoundFailure("reward", id), nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up reward: %w", err)
	}
	var campaignID string
	if s.voucher.CampaignID != nil {
		campaignID = *s.voucher.CampaignID
	}
	a, err := c.V1RewardAssignment.Query().
		Where(v1rewardassignment.RewardID(rw.ID), v1rewardassignment.CampaignID(campaignID)).First(ctx)
	if ent.IsNotFound(err) {
		return failure("invalid_reward", fmt.Sprintf("Reward %s is not assigned to the campaign of loyalty card %s", rw.ID, s.voucher.Code)), nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up reward assignment: %w", err)
	}
	switch {
	case rw.Type == "COIN":
		if f := e.checkCoin(s, rw); f != nil { // coin.go
			return f, nil
		}
		if f, err := e.checkCoinRules(ctx, s, a); f != nil || err != nil { // coin_rules.go
			return f, err
		}
	case a.Points == nil:
		return failure("invalid_reward", fmt.Sprintf("Reward %s has no price in points", rw.ID)), nil
	case rw.Stock != nil && rw.Redeemed >= *rw.Stock:
		return failure("reward_out_of_stock", fmt.Sprintf("Reward %s is out of stock", rw.ID)), nil
	default:
		s.points = *a.Points
	}
	s.reward = &rewardRef{ID: rw.ID, Name: rw.Name, Type: rw.Type, AssignmentID: a.ID}
	balance := int64(0)
	if l := s.voucher.LoyaltyCard; l != nil {
		balance = l.Balance
	}
	if balance-held.points < s.points {
		return failure("loyalty_card_points_exceeded", s.voucher.Code), nil
	}
	return nil, nil
}

// RewardIssue is what a v1 reward redemption hands to IssueReward: the
// reward and assignment, the card that paid, the customer (the request's,
// or the card's holder) and the redemption being written.
type RewardIssue struct {
	RewardID, AssignmentID, RedemptionID string
	Card                                 *ent.Voucher
	CustomerID                           *string
	Points                               int64
}

// IssueReward issues what a v1 reward promises (a coupon, gift credits,
// points, a unit of a product) inside the redemption's transaction and
// returns the reward object the redemption keeps. It is set at wiring time
// by graph/reward (a domain above this one); unset, v1 rewards are
// refused.
var IssueReward func(ctx context.Context, in RewardIssue) (map[string]any, error)

// issueReward stores the reward of state s: the v2 reward as it is, a v1
// reward through IssueReward.
func (w *writer) issueReward(ctx context.Context, s *redeemableState, redemptionID string) (map[string]any, error) {
	if s.reward.AssignmentID == "" {
		return s.reward.stored(s.points), nil
	}
	if IssueReward == nil {
		return nil, fmt.Errorf("redemption: v1 rewards are not wired (IssueReward)")
	}
	in := RewardIssue{RewardID: s.reward.ID, AssignmentID: s.reward.AssignmentID, RedemptionID: redemptionID,
		Card: s.voucher, Points: s.points}
	if w.e.customer != nil {
		in.CustomerID = &w.e.customer.ID
	} else {
		in.CustomerID = s.voucher.HolderID
	}
	out, err := IssueReward(ctx, in)
	if err != nil {
		return nil, err
	}
	out["points"] = s.points
	return out, nil
}
