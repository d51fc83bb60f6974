package reward

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	campaigns "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// maxMemberRewards bounds the rewards a member's list shows (the newest
// assignments of the card's campaign).
const maxMemberRewards = 100

// MemberReward is one reward a member can get: the reward and its
// assignment to the member's campaign.
type MemberReward struct {
	Reward     *ent.V1Reward           `json:"reward"`
	Assignment *ent.V1RewardAssignment `json:"assignment"`
}

// MemberRewardList is the rewards of a member and how many there are.
type MemberRewardList struct {
	Total int             `json:"total"`
	Data  []*MemberReward `json:"data"`
}

// member finds a v1 loyalty member: a LOYALTY_CARD voucher by code (or
// v_ id), in the named campaign when campaignRef is set.
func member(ctx context.Context, campaignRef *string, code string) (*ent.Voucher, error) {
	var cmp *ent.Campaign
	if campaignRef != nil && *campaignRef != "" {
		var err error
		if cmp, err = loyaltyCampaign(ctx, *campaignRef); err != nil {
			return nil, err
		}
	}
	v, err := campaigns.VoucherByCodeOrID(ctx, code)
	if err != nil {
		return nil, err
	}
	if v.Type != jsonfield.VoucherTypeLoyaltyCard || (cmp != nil && (v.CampaignID == nil || *v.CampaignID != cmp.ID)) {
		return nil, apperr.NotFound("voucher", code)
	}
	return v, nil
}

// MemberRewards serves REST GET /v1/loyalties/members/{memberId}/rewards
// and v1MemberRewards: the rewards assigned to the card's campaign (at
// most the newest 100); affordableOnly keeps those whose price the
// card's balance covers (COIN rewards have no price and always show).
func MemberRewards(ctx context.Context, memberCode string, affordableOnly bool) (*MemberRewardList, error) {
	v, err := member(ctx, nil, memberCode)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	campaignID := ""
	if v.CampaignID != nil {
		campaignID = *v.CampaignID
	}
	q := c.V1RewardAssignment.Query().Where(v1rewardassignment.CampaignID(campaignID))
	balance := int64(0)
	if v.LoyaltyCard != nil {
		balance = v.LoyaltyCard.Balance
	}
	if affordableOnly {
		q.Where(v1rewardassignment.Or(v1rewardassignment.PointsIsNil(), v1rewardassignment.PointsLTE(balance)))
	}
	assignments, err := q.Order(ent.Desc(v1rewardassignment.FieldCreatedAt), ent.Desc(v1rewardassignment.FieldID)).
		Limit(maxMemberRewards).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing member rewards: %w", err)
	}
	ids := make([]string, len(assignments))
	for i, a := range assignments {
		ids[i] = a.RewardID
	}
	rewards, err := c.V1Reward.Query().Where(v1reward.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading member rewards: %w", err)
	}
	byID := make(map[string]*ent.V1Reward, len(rewards))
	for _, r := range rewards {
		byID[r.ID] = r
	}
	out := &MemberRewardList{Data: []*MemberReward{}}
	for _, a := range assignments {
		if r := byID[a.RewardID]; r != nil {
			out.Data = append(out.Data, &MemberReward{Reward: r, Assignment: a})
		}
	}
	out.Total = len(out.Data)
	return out, nil
}
