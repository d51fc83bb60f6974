package loyaltyv1

import (
	"context"
	"fmt"
	"sort"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/reward"
)

// TierRewards lists the rewards a tier maps (GET
// /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards): each
// assignment of the program named in the tier's rewards mapping, with its
// reward, in creation order. A reward switched off for the tier is not in
// the mapping and so not listed.
func TierRewards(ctx context.Context, programIDOrName, tierID string) (*reward.MemberRewardList, error) {
	t, err := Tier(ctx, programIDOrName, tierID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(t.Rewards))
	for id := range t.Rewards {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := &reward.MemberRewardList{Data: []*reward.MemberReward{}}
	if len(ids) == 0 {
		return out, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	as, err := c.V1RewardAssignment.Query().Where(v1rewardassignment.IDIn(ids...), v1rewardassignment.CampaignID(t.CampaignID)).
		Order(ent.Asc(v1rewardassignment.FieldCreatedAt, v1rewardassignment.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing tier rewards: %w", err)
	}
	rewardIDs := make([]string, 0, len(as))
	for _, a := range as {
		rewardIDs = append(rewardIDs, a.RewardID)
	}
	rs, err := c.V1Reward.Query().Where(v1reward.IDIn(rewardIDs...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading tier rewards: %w", err)
	}
	byID := map[string]*ent.V1Reward{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	for _, a := range as {
		if r := byID[a.RewardID]; r != nil {
			out.Data = append(out.Data, &reward.MemberReward{Reward: r, Assignment: a})
		}
	}
	out.Total = len(out.Data)
	return out, nil
}
