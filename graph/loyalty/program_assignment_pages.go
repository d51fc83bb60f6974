package loyalty

import (
	"context"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Keyset pages of a program's card definitions and earning rules
// (GET …/programs/{id}/card-definitions|earning-rules; the tier
// structures' page is ProgramTierStructures). The assigned ids live in the
// program row, which is read whole; a page reads at most limit+1 rows of
// the resource table, ordered by the resource's (created_at, id): the
// time of an assignment is not stored. A program holds at most 10 card
// definitions; its earning rules grow by batches of at most MaxBatch.

// CardDefinitionPage is a page of a program's card definitions.
type CardDefinitionPage struct {
	Data    []*ent.CardDefinition
	HasMore bool
}

// EarningRulePage is a page of a program's (live) earning rules.
type EarningRulePage struct {
	Data    []*ent.EarningRule
	HasMore bool
}

// ProgramCardDefinitionsPage pages through a program's card definitions.
func ProgramCardDefinitionsPage(ctx context.Context, programID string, page loyaltybase.PageInput) (*CardDefinitionPage, error) {
	p, c, err := programAndClient(ctx, programID)
	if err != nil {
		return nil, err
	}
	at := cursorTime(ctx, c.CardDefinition.Get, func(d *ent.CardDefinition) time.Time { return d.CreatedAt })
	rows, more, err := loyaltybase.KeysetPage(page, at,
		func(keys []predicate.CardDefinition, order []carddefinition.OrderOption, n int) ([]*ent.CardDefinition, error) {
			return c.CardDefinition.Query().Where(carddefinition.IDIn(p.CardDefinitionIds...)).
				Where(keys...).Order(order...).Limit(n).All(ctx)
		})
	if err != nil {
		return nil, err
	}
	return &CardDefinitionPage{Data: rows, HasMore: more}, nil
}

// ProgramEarningRulesPage pages through a program's live earning rules.
func ProgramEarningRulesPage(ctx context.Context, programID string, page loyaltybase.PageInput) (*EarningRulePage, error) {
	p, c, err := programAndClient(ctx, programID)
	if err != nil {
		return nil, err
	}
	at := cursorTime(ctx, c.EarningRule.Get, func(r *ent.EarningRule) time.Time { return r.CreatedAt })
	rows, more, err := loyaltybase.KeysetPage(page, at,
		func(keys []predicate.EarningRule, order []earningrule.OrderOption, n int) ([]*ent.EarningRule, error) {
			return c.EarningRule.Query().Where(liveEarningRulesOf(p)).Where(keys...).Order(order...).Limit(n).All(ctx)
		})
	if err != nil {
		return nil, err
	}
	return &EarningRulePage{Data: rows, HasMore: more}, nil
}

// programAndClient reads the program (404 when the project has none) and
// returns it with the request's client.
func programAndClient(ctx context.Context, programID string) (*ent.LoyaltyProgram, *ent.Client, error) {
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, nil, err
	}
	return p, c, nil
}

// cursorTime is KeysetPage's cursor-row lookup over an entity's Get.
func cursorTime[T any](ctx context.Context, get func(context.Context, string) (T, error), createdAt func(T) time.Time) func(string) (time.Time, error) {
	return func(id string) (time.Time, error) {
		row, err := get(ctx, id)
		if err != nil {
			return time.Time{}, err
		}
		return createdAt(row), nil
	}
}
