package loyaltyv1

// Reading a program's tiers: one, the list, the tier a balance falls in,
// a member's tiers and a tier's earning rules (tiers.go creates them).

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltytier"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Tier finds a program's tier (404 loyalty_tier).
func Tier(ctx context.Context, programIDOrName, id string) (*ent.LoyaltyTier, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.LoyaltyTier.Query().Where(loyaltytier.ID(id), loyaltytier.CampaignID(cmp.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("loyalty_tier", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up tier: %w", err)
	}
	return t, nil
}

// TierListInput is the query of a program's tiers.
type TierListInput struct {
	Limit *int `json:"limit"`
	// Order is created_at or updated_at, - for descending (default created_at).
	Order *string `json:"order"`
}

// TierList is a page of tiers and how many the program has.
type TierList struct {
	Total int                `json:"total"`
	Data  []*ent.LoyaltyTier `json:"data"`
}

// Tiers lists a program's tiers, oldest first by default.
func Tiers(ctx context.Context, programIDOrName string, in *TierListInput) (*TierList, error) {
	if in == nil {
		in = &TierListInput{}
	}
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	n, _, err := page.Offset(in.Limit, nil)
	if err != nil {
		return nil, err
	}
	order, err := timeOrder(in.Order, "created_at")
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.LoyaltyTier.Query().Where(loyaltytier.CampaignID(cmp.ID))
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting tiers: %w", err)
	}
	data, err := q.Order(order).Limit(n).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing tiers: %w", err)
	}
	return &TierList{Total: total, Data: data}, nil
}

// tierFor is the program's tier whose range holds points (nil: none).
func tierFor(ctx context.Context, campaignID string, points int64) (*ent.LoyaltyTier, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	// All the program's tiers (tier creation reads them all too: ranges
	// never overlap), once per read memo (store.WithReadMemo).
	tiers, err := store.Remembered(ctx, "loyalty-tiers:"+campaignID, func() ([]*ent.LoyaltyTier, error) {
		return c.LoyaltyTier.Query().Where(loyaltytier.CampaignID(campaignID)).Order(loyaltytier.ByID()).All(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("looking up the card's tier: %w", err)
	}
	for _, t := range tiers {
		if (t.PointsFrom == nil || *t.PointsFrom <= points) && (t.PointsTo == nil || *t.PointsTo >= points) {
			return t, nil
		}
	}
	return nil, nil
}

// MemberTiers is the member's current tier (GraphQL loyaltyV1MemberTiers):
// MemberTierHolds' tiers without their expiration.
func MemberTiers(ctx context.Context, code string) ([]*ent.LoyaltyTier, error) {
	holds, err := MemberTierHolds(ctx, code)
	if err != nil {
		return nil, err
	}
	out := make([]*ent.LoyaltyTier, len(holds))
	for i, h := range holds {
		out[i] = h.Tier
	}
	return out, nil
}

// TierEarningRules pages the program's earning rules as they award in the
// tier (GET …/tiers/{loyaltyTierId}/earning-rules): FIXED points with the
// tier's mapping applied.
func TierEarningRules(ctx context.Context, programIDOrName, tierID string, in *EarningRuleListInput) (*EarningRuleList, error) {
	t, err := Tier(ctx, programIDOrName, tierID)
	if err != nil {
		return nil, err
	}
	res, err := EarningRules(ctx, t.CampaignID, in)
	if err != nil {
		return nil, err
	}
	for i, r := range res.Data {
		m, err := parseMapping(t.EarningRules[r.ID])
		if err != nil || r.Loyalty["type"] != "FIXED" {
			continue
		}
		f, err := parseFormula(r.Loyalty, eventKind(r.Event))
		if err != nil {
			continue
		}
		mapped := *r
		mapped.Loyalty = map[string]any{}
		for k, v := range r.Loyalty {
			mapped.Loyalty[k] = v
		}
		mapped.Loyalty["points"] = m.apply(f.Points.Value)
		res.Data[i] = &mapped
	}
	return res, nil
}
