package redemption

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// loadRules reads the rules assigned to the request's vouchers and their
// campaigns in two queries and gives each redeemable its parsed rules.
func (e *evaluation) loadRules(ctx context.Context) error {
	if e.rulesRead() {
		return e.rulesFromLookup()
	}
	var objects []string
	for _, s := range e.states {
		if s.hasRules && !s.fromSnapshot {
			objects = append(objects, s.ruleObjects()...)
		}
	}
	if len(objects) == 0 {
		return nil
	}
	as, err := validationrules.RuleAssignments(ctx, objects...)
	if err != nil || len(as) == 0 {
		return err
	}
	ids := make([]string, 0, len(as))
	for _, a := range as {
		ids = append(ids, a.RuleID)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	rs, err := c.ValidationRule.Query().Where(validationrule.IDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading validation rules: %w", err)
	}
	defs := map[string]rules.Definition{}
	for _, r := range rs {
		msg, _ := r.Error["message"].(string)
		// Stored rules were checked when written; one that no longer parses
		// keeps its (empty, failing) definition and blocks the voucher.
		def, _ := rules.Parse(r.Rules, msg, r.ApplicableTo)
		def.Bundle, _ = rules.DecodeBundleRules(r.BundleRules)
		defs[r.ID] = def
	}
	for _, s := range e.states {
		objects := s.ruleObjects()
		if len(objects) == 0 || s.fromSnapshot {
			continue
		}
		for _, a := range as {
			if slices.Contains(objects, a.RelatedObjectID) {
				if def, ok := defs[a.RuleID]; ok {
					s.rules = append(s.rules, def)
					s.ruleIDs = append(s.ruleIDs, a.RuleID)
				}
			}
		}
	}
	return nil
}
