package loyaltyv1

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/webhook"
)

// emitTierChange writes the webhook event of a card's tier change
// (reference §5: customer.loyalty.tier.joined|left {customer, campaign,
// loyalty_tier, created_at}, upgraded|downgraded {…, loyalty_tier_from,
// loyalty_tier_to}), in the points move's transaction, so a move that is
// rolled back announces nothing.
func emitTierChange(ctx context.Context, v *ent.Voucher, event string, before, after *ent.LoyaltyTier) error {
	data := map[string]any{
		"customer":   map[string]any{"id": *v.HolderID, "object": "customer"},
		"campaign":   map[string]any{"id": *v.CampaignID, "object": "campaign"},
		"voucher":    map[string]any{"id": v.ID, "code": v.Code, "object": "voucher"},
		"created_at": clock.Format(clock.At(ctx)),
	}
	switch event {
	case "customer.loyalty.tier.joined":
		data["loyalty_tier"] = tierRef(after)
	case "customer.loyalty.tier.left":
		data["loyalty_tier"] = tierRef(before)
	default:
		data["loyalty_tier"] = tierRef(after)
		data["loyalty_tier_from"], data["loyalty_tier_to"] = tierRef(before), tierRef(after)
	}
	return webhook.Emit(ctx, event, "customer", *v.HolderID, data)
}

// tierRef is a tier as tier events show it.
func tierRef(t *ent.LoyaltyTier) map[string]any {
	return map[string]any{"id": t.ID, "name": t.Name, "campaign_id": t.CampaignID, "object": "loyalty_tier"}
}
