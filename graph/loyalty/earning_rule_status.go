package loyalty

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/earningrule"
)

// ActivateEarningRule makes an earning rule active.
func ActivateEarningRule(ctx context.Context, id string) (*ent.EarningRule, error) {
	return setEarningRuleStatus(ctx, id, earningrule.StatusACTIVE)
}

// DeactivateEarningRule moves ACTIVE → INACTIVE; the lifecycle hook refuses
// any other current status (409 invalid_state_transition).
func DeactivateEarningRule(ctx context.Context, id string) (*ent.EarningRule, error) {
	return setEarningRuleStatus(ctx, id, earningrule.StatusINACTIVE)
}

// DraftEarningRule puts an earning rule back into draft.
func DraftEarningRule(ctx context.Context, id string) (*ent.EarningRule, error) {
	return setEarningRuleStatus(ctx, id, earningrule.StatusDRAFT)
}
