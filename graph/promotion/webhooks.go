package promotion

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Webhook events of tiers and stacks (the real service's names; listed in
// webhook.WebhookEventNames).
const (
	EventTierCreated  = "campaign.promotion_tier.created"
	EventTierUpdated  = "campaign.promotion_tier.updated"
	EventTierDeleted  = "campaign.promotion_tier.deleted"
	EventTierEnabled  = "campaign.promotion_tier.enabled"
	EventTierDisabled = "campaign.promotion_tier.disabled"
	EventStackCreated = "campaign.promotion_stack.created"
	EventStackUpdated = "campaign.promotion_stack.updated"
)

// emitTier writes a tier event in the caller's transaction: data
// promotion_tier (the REST tier object) and campaign.
func emitTier(ctx context.Context, name string, t *ent.PromotionTier) error {
	return webhook.Emit(ctx, name, "promotion_tier", t.ID, map[string]any{"promotion_tier": t, "campaign": t.Edges.Campaign})
}

// emitStack writes a stack event: data promotion_stack.
func emitStack(ctx context.Context, name string, s *ent.PromotionStack) error {
	return webhook.Emit(ctx, name, "promotion_stack", s.ID, map[string]any{"promotion_stack": s})
}
