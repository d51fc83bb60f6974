package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	entrule "github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/graph/internal/store"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// checkCoinRules checks a COIN reward assignment's validation rule
// (validation_rules, at most one: graph/reward/assignments.go) against the
// redemption's context — the order, the customer, the metadata — as a
// voucher's rules are checked (rules.go): paying with points is refused
// when the rule fails, with the rule's error, and nothing is written. A
// rule that no longer exists limits nothing.
func (e *evaluation) checkCoinRules(ctx context.Context, s *redeemableState, a *ent.V1RewardAssignment) (*checkFailure, error) {
	if len(a.ValidationRules) == 0 {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rs, err := c.ValidationRule.Query().Where(entrule.IDIn(a.ValidationRules...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the reward's validation rules: %w", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	rc, err := e.checkedContext(ctx, s) // rules.go
	if err != nil {
		return nil, err
	}
	defs, ids := make([]rules.Definition, len(rs)), make([]string, len(rs))
	for i, r := range rs {
		msg, _ := r.Error["message"].(string)
		defs[i], _ = rules.Parse(r.Rules, msg, r.ApplicableTo) // checked when stored; a broken one fails
		ids[i] = r.ID
	}
	return e.firstViolation(s, &rc, defs, ids, "Reward "+a.RewardID)
}
