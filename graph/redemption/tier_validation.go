package redemption

import (
	"context"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/observe"
)

// ValidatePromotionTier serves the legacy POST
// /v1/promotions/tiers/{id}/validation: one tier checked and computed on
// the order (its rules, applicable_to, item effects), nothing written. An
// unknown tier is a 404; a tier that cannot be used is valid:false with
// the reason and the error object (the rule's custom text as its message).
func ValidatePromotionTier(ctx context.Context, id string, in *VoucherRedemptionInput) (map[string]any, error) {
	req, err := tierRequest(id, in) // promotion_legacy.go
	if err != nil {
		return nil, err
	}
	var out map[string]any
	run := func(ctx context.Context) error {
		e, err := evaluate(ctx, req, readOnly)
		if err != nil {
			return err
		}
		s := e.states[0]
		if s.tier == nil {
			return apperr.NotFound("promotion_tier", id)
		}
		if e.valid {
			out = e.legacyPromotion(s, e.order, e.outcomes[0]) // promotion_legacy.go
			return nil
		}
		f := e.failureOf(s, e.outcomes[0].Key, "")
		message := f.Message
		if f.Error != nil {
			message = f.Error.Message
		}
		out = map[string]any{"valid": false, "reason": f.Message, "tracking_id": e.trackingID,
			"error": map[string]any{"code": f.Code, "key": f.Key, "message": message, "details": f.Details,
				"request_id": observe.RequestIDFromContext(ctx)}}
		return nil
	}
	return out, runValidation(ctx, req, run)
}
