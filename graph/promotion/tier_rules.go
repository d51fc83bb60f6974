package promotion

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// tierRulesUpdate is what a tier update asks of the tier's validation
// rules: nothing (set false), or exactly the rules and kept assignments
// listed.
type tierRulesUpdate struct {
	set     bool
	ruleIDs []string // val_… ids, in the order sent
	keep    []campaignpkg.TierAssignmentRef
}

// rulesUpdateOf reads validation_rules or validation_rule_assignments of
// a tier update (checked already by TierAssignments for their shape).
func rulesUpdateOf(in *TierInput) (tierRulesUpdate, error) {
	refs, sent, err := in.TierAssignments()
	if err != nil {
		return tierRulesUpdate{}, err
	}
	if sent {
		return tierRulesUpdate{set: true, keep: refs}, nil
	}
	if in.ValidationRules != nil || in.IsNull("validation_rules") { // null: no rules, as []
		return tierRulesUpdate{set: true, ruleIDs: in.ValidationRules}, nil
	}
	return tierRulesUpdate{}, nil
}

// apply makes the tier's assignments exactly the wanted rules: an
// assignment of a wanted rule stays (its asgm_… id does not change), the
// others are removed, missing ones are created. An entry naming an
// assignment that is not the tier's is a 404 validation_rules_assignment,
// an unknown rule a 404 validation_rules; the caller's transaction then
// writes nothing.
func (u tierRulesUpdate) apply(ctx context.Context, tierID string) error {
	if !u.set {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	current, err := c.ValidationRuleAssignment.Query().Where(validationruleassignment.RelatedObjectID(tierID)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the tier's rule assignments: %w", err)
	}
	wanted, err := u.wantedRules(current)
	if err != nil {
		return err
	}
	has := map[string]bool{}
	var drop []string
	for _, a := range current {
		if slices.Contains(wanted, a.RuleID) && !has[a.RuleID] {
			has[a.RuleID] = true
			continue
		}
		drop = append(drop, a.ID)
	}
	if len(drop) > 0 {
		if _, err := c.ValidationRuleAssignment.Delete().Where(validationruleassignment.IDIn(drop...)).Exec(ctx); err != nil {
			return fmt.Errorf("removing the tier's rule assignments: %w", err)
		}
	}
	var add []string
	for _, id := range wanted {
		if !has[id] {
			has[id] = true
			add = append(add, id)
		}
	}
	_, err = campaignpkg.AssignRules(ctx, validationruleassignment.RelatedObjectTypePromotionTier, tierID, add)
	return err
}

// wantedRules resolves the update's entries to rule ids, without repeats.
func (u tierRulesUpdate) wantedRules(current []*ent.ValidationRuleAssignment) ([]string, error) {
	byID := map[string]string{}
	for _, a := range current {
		byID[a.ID] = a.RuleID
	}
	out := make([]string, 0, len(u.ruleIDs)+len(u.keep))
	add := func(id string) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, id := range u.ruleIDs {
		add(id)
	}
	for i, r := range u.keep {
		if r.ID == nil || *r.ID == "" {
			add(*r.RuleID)
			continue
		}
		rule, ok := byID[*r.ID]
		if !ok {
			return nil, apperr.NotFound("validation_rules_assignment", *r.ID)
		}
		if r.RuleID != nil && *r.RuleID != "" && *r.RuleID != rule {
			return nil, apperr.InvalidPayload("Property .validation_rule_assignments.data[%d]: assignment %s is of rule %s, not %s", i, *r.ID, rule, *r.RuleID)
		}
		add(rule)
	}
	return out, nil
}
