package loyaltyv1

import (
	"context"

	"github.com/promoengine/promoengine/ent"
)

// Tier-event earning rules (reference §4, §5): a points move that changes
// the tier a card holds fires the program's active rules of the change —
// customer.loyalty.tier.joined (no tier → a tier), .left (a tier → none),
// .upgraded or .downgraded (by the tiers' ranges) — whose loyalty_tier.id
// is the tier entered (the tier left, for .left) or __ANY__. Each adds its
// points (FIXED, or CUSTOMER_METADATA by the holder's metadata) as one
// POINTS_ACCRUAL; those accruals fire no tier rules themselves. A tier
// lost or kept only because the clock moved (a qualification period
// ended) is settled by the daily job (tier_daily.go).

// cardTier is the tier the card holds at the context's clock (nil: none).
func cardTier(ctx context.Context, v *ent.Voucher) (*ent.LoyaltyTier, error) {
	if v.CampaignID == nil || v.HolderID == nil {
		return nil, nil
	}
	p, err := qualifyingPoints(ctx, v)
	if err != nil {
		return nil, err
	}
	return tierFor(ctx, *v.CampaignID, p)
}

// tierChange is the tier event of a move from one tier to another ("" for none).
func tierChange(before, after *ent.LoyaltyTier) string {
	switch {
	case before == nil && after == nil, before != nil && after != nil && before.ID == after.ID:
		return ""
	case before == nil:
		return "customer.loyalty.tier.joined"
	case after == nil:
		return "customer.loyalty.tier.left"
	case from(after) > from(before):
		return "customer.loyalty.tier.upgraded"
	}
	return "customer.loyalty.tier.downgraded"
}

// from is a tier's lower bound (an open one counts lowest).
func from(t *ent.LoyaltyTier) int64 {
	if t.PointsFrom == nil {
		return -1 << 62
	}
	return *t.PointsFrom
}

// afterTierMove fires the tier-event rules when the locked card v, just
// moved, no longer holds the tier before.
func afterTierMove(ctx context.Context, c *ent.Client, v *ent.Voucher, before *ent.LoyaltyTier) error {
	after, err := cardTier(ctx, v)
	if err != nil {
		return err
	}
	return fireTierChange(ctx, c, v, before, after)
}

// fireTierChange records and announces the locked card v's move from tier
// before to after (nil: none), if it is one, and books its tier-event
// rules' accruals (fireTierRules, tier_daily.go).
func fireTierChange(ctx context.Context, c *ent.Client, v *ent.Voucher, before, after *ent.LoyaltyTier) error {
	event := tierChange(before, after)
	if event == "" {
		return nil
	}
	if err := emitTierChange(ctx, v, event, before, after); err != nil { // tier_webhooks.go
		return err
	}
	if err := recordTierChange(ctx, c, v, event, before, after); err != nil { // tier_activities.go
		return err
	}
	subject := after
	if subject == nil {
		subject = before
	}
	return fireTierRules(ctx, c, v, event, subject)
}
