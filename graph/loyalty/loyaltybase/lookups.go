package loyaltybase

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Lookups of the v2 loyalty resources by id, each a 404 naming the
// resource when it is missing (or, for the soft-deleted kinds, DELETED).

// Program returns the loyalty program with id.
func Program(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	p, err := c.LoyaltyProgram.Get(ctx, id)
	if err := NotFound(err, "program", id); err != nil {
		return nil, err
	}
	return p, nil
}

// CardDefinition returns the card definition with id.
func CardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	d, err := c.CardDefinition.Get(ctx, id)
	if err := NotFound(err, "card_definition", id); err != nil {
		return nil, err
	}
	return d, nil
}

// EarningRule returns the earning rule with id.
func EarningRule(ctx context.Context, id string) (*ent.EarningRule, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.EarningRule.Query().Where(earningrule.ID(id), earningrule.StatusNEQ(earningrule.StatusDELETED)).Only(ctx)
	if err := NotFound(err, "earning_rule", id); err != nil {
		return nil, err
	}
	return r, nil
}

// IncentiveByID returns the incentive with id (linc_ or its August
// spelling lben_; a deleted one is not found).
func IncentiveByID(ctx context.Context, id string) (*ent.Incentive, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	id = IncentiveID(id)
	i, err := c.Incentive.Query().Where(incentive.ID(id), incentive.StatusNEQ(incentive.StatusDELETED)).Only(ctx)
	if err := NotFound(err, "incentive", id); err != nil {
		return nil, err
	}
	return i, nil
}

// RewardByID returns the reward with id.
func RewardByID(ctx context.Context, id string) (*ent.Reward, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.Reward.Query().Where(reward.ID(id), reward.StatusNEQ(reward.StatusDELETED)).Only(ctx)
	if err := NotFound(err, "reward", id); err != nil {
		return nil, err
	}
	return r, nil
}

// Member finds a member of a program (404 program, then member).
func Member(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	if _, err := Program(ctx, programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.LoyaltyMember.Query().
		Where(loyaltymember.ID(memberID), loyaltymember.ProgramID(programID)).Only(ctx)
	if err := NotFound(err, "member", memberID); err != nil {
		return nil, err
	}
	return m, nil
}

// MemberCard finds a card of a member of a program: 404 naming the program,
// member or card that is unknown or does not belong.
func MemberCard(ctx context.Context, programID, memberID, cardID string) (*ent.Card, error) {
	if _, err := Member(ctx, programID, memberID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cd, err := c.Card.Query().Where(card.ID(cardID), card.MemberID(memberID), card.ProgramID(programID)).Only(ctx)
	if err := NotFound(err, "card", cardID); err != nil {
		return nil, err
	}
	return cd, nil
}

// TierStructure returns the tier structure with id.
func TierStructure(ctx context.Context, id string) (*ent.TierStructure, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.TierStructure.Get(ctx, id)
	if err := NotFound(err, "tier_structure", id); err != nil {
		return nil, err
	}
	return t, nil
}
