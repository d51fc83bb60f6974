package loyalty

import (
	"context"
	"fmt"
	"net/http"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/programreward"
	"github.com/promoengine/promoengine/ent/tierstructure"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Deletes of the v2 resources (DELETE /v2/loyalties/{programs,
// card-definitions,earning-rules,incentives|benefits,rewards}/{id}). Earning
// rules, incentives and rewards have a DELETED status: they are soft-deleted
// (their activities keep pointing at them; reads answer 404 afterwards).
// Programs and card definitions are removed; each answers with the
// resource as it was, status DELETED. A resource still in use is 409
// resource_in_use and nothing changes.

// InUse is the 409 of a delete refused because something refers to the
// resource.
func InUse(resourceType, id, by string) error {
	e := apperr.New(http.StatusConflict, "resource_in_use", "Resource in use",
		fmt.Sprintf("The %s %s is used by %s", resourceType, id, by))
	e.ResourceID, e.ResourceType = id, resourceType
	return e
}

// ContainsID selects the programs whose JSON id list field holds id.
func ContainsID(field, id string) func(*sql.Selector) {
	return func(s *sql.Selector) { s.Where(sqljson.ValueContains(field, id)) }
}

// DeleteLoyaltyProgram removes a program with no members, together with its
// reward assignments (a program with members is 409: its cards hold points).
func DeleteLoyaltyProgram(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	p, err := loyaltybase.Program(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if n, err := c.LoyaltyMember.Query().Where(loyaltymember.ProgramID(id)).Limit(1).Count(ctx); err != nil {
		return nil, fmt.Errorf("counting members: %w", err)
	} else if n > 0 {
		return nil, InUse("program", id, "its members")
	}
	if _, err := c.ProgramReward.Delete().Where(programreward.ProgramID(id)).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting reward assignments: %w", err)
	}
	if _, err := c.Card.Delete().Where(card.ProgramID(id)).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting unassigned cards: %w", err)
	}
	if err := c.LoyaltyProgram.DeleteOneID(id).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting program: %w", err)
	}
	p.Status = "DELETED"
	return p, loyaltybase.RecordActivity(ctx, loyaltybase.ProgramActivities, id, "deleted", p)
}

// DeleteCardDefinition removes a card definition that no program, card,
// tier structure or reward assignment uses.
func DeleteCardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	d, err := loyaltybase.CardDefinition(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	checks := []struct {
		by    string
		count func(context.Context) (int, error)
	}{
		{"a program", c.LoyaltyProgram.Query().Where(ContainsID(loyaltyprogram.FieldCardDefinitionIds, id)).Count},
		{"cards", c.Card.Query().Where(card.CardDefinitionID(id)).Count},
		{"a tier structure", c.TierStructure.Query().Where(tierstructure.CardDefinitionID(id)).Count},
		{"a reward assignment", c.ProgramReward.Query().Where(programreward.CardDefinitionID(id)).Count},
	}
	for _, chk := range checks {
		n, err := chk.count(ctx)
		if err != nil {
			return nil, fmt.Errorf("checking card definition use: %w", err)
		}
		if n > 0 {
			return nil, InUse("card_definition", id, chk.by)
		}
	}
	if err := c.CardDefinition.DeleteOneID(id).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting card definition: %w", err)
	}
	d.Status = "DELETED"
	return d, loyaltybase.RecordActivity(ctx, loyaltybase.CardDefinitionActivities, id, "deleted", d)
}

// DeleteEarningRule soft-deletes an earning rule no program has assigned.
func DeleteEarningRule(ctx context.Context, id string) (*ent.EarningRule, error) {
	r, err := loyaltybase.EarningRule(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	n, err := c.LoyaltyProgram.Query().Where(ContainsID(loyaltyprogram.FieldEarningRuleIds, id)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking earning rule use: %w", err)
	}
	if n > 0 {
		return nil, InUse("earning_rule", id, "a program")
	}
	out, err := r.Update().SetStatus(earningrule.StatusDELETED).Save(ctx)
	if err != nil {
		return nil, err
	}
	return out, loyaltybase.RecordActivity(ctx, loyaltybase.EarningRuleActivities, id, "deleted", out)
}

// DeleteIncentive soft-deletes an incentive (benefit) that no live earning
// rule refers to.
func DeleteIncentive(ctx context.Context, id string) (*ent.Incentive, error) {
	inc, err := loyaltybase.IncentiveByID(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rules, err := c.EarningRule.Query().Where(earningrule.StatusNEQ(earningrule.StatusDELETED)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading earning rules: %w", err)
	}
	for _, r := range rules {
		for _, e := range r.Earnings {
			for _, eff := range e.Effects {
				if eff.Incentive != nil && loyaltybase.IncentiveID(eff.Incentive.ID) == inc.ID {
					return nil, InUse("incentive", inc.ID, "earning rule "+r.ID)
				}
			}
		}
	}
	out, err := inc.Update().SetStatus(incentive.StatusDELETED).Save(ctx)
	if err != nil {
		return nil, err
	}
	return out, loyaltybase.RecordActivity(ctx, loyaltybase.IncentiveActivities, inc.ID, "deleted", out)
}
