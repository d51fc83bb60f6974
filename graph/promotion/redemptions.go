package promotion

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
)

// OfRedemption is the tier a promotion tier's redemption names, as it is
// now (Redemption.promotionTier); nil for other redemptions and for a
// deleted tier.
func OfRedemption(ctx context.Context, r *ent.Redemption) (*ent.PromotionTier, error) {
	if r.RelatedObjectType != "promotion_tier" {
		return nil, nil
	}
	t, err := Tier(ctx, r.RelatedObjectID)
	if e, ok := apperr.As(err); ok && e.Code == 404 {
		return nil, nil
	}
	return t, err
}
