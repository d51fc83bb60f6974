package loyalty

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Earning limits and balance settings of a v2 card definition
// (loyalties-v2-benefits.json CardDefinitionEarningLimitsInput,
// CardDefinitionBalanceSettingsInput), applied to the points earning
// rules award:
//
//   - transactions POINTS {max}: one booking of an earning rule credits at
//     most max points (the rest is not credited);
//   - transactions SPENDING {min_amount}: an order earns the card nothing
//     unless its total_amount (after discounts, minor units) is at least
//     min_amount; earnings without an order (custom events, segments) have
//     no transaction amount and are not limited by it;
//   - global BALANCE_BASED {max}: a credit never takes the balance above
//     max (capped; nothing when the balance is there already);
//   - global TIME_BASED {period: CURRENT_PERIOD {unit}, points {max}}: the
//     points earning rules credited in the current UTC DAY, WEEK (from
//     Monday), MONTH, QUARTER or YEAR stay at most max (capped).
//
// The caps are read in bookCardPoints after the card row is locked, so the
// balance and the period's sum include every earlier committed credit:
// concurrent earnings never pass a limit together. Manual additions
// (ADMIN_CREDIT), refunds and returns are not earnings and are not capped.
// A pending entry is capped when it is activated (when its points are
// booked). A credit capped to nothing books no transaction.
//
// balance_settings.allow_negative lets an admin debit (the points
// endpoint's removal) take the balance below zero; every other debit —
// reward purchases, order payments, expiry — still needs the points.

// CardDefinitionOf is the card's definition (nil: none, or deleted).
func CardDefinitionOf(ctx context.Context, crd *ent.Card) (*ent.CardDefinition, error) {
	if crd.CardDefinitionID == nil {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	d, err := c.CardDefinition.Get(ctx, *crd.CardDefinitionID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the card's definition: %w", err)
	}
	return d, nil
}

// earningLimitsOf are the definition's earning limits (nil: none set).
func earningLimitsOf(d *ent.CardDefinition) *jsonfield.CardLimits {
	if d == nil || d.Settings == nil {
		return nil
	}
	return d.Settings.EarningLimits
}

// earningAllowance is how many of points an earning rule may credit to the
// locked card crd under its definition's earning limits (0 to points).
func earningAllowance(ctx context.Context, crd *ent.Card, points int64) (int64, error) {
	d, err := CardDefinitionOf(ctx, crd)
	if err != nil {
		return 0, err
	}
	l := earningLimitsOf(d)
	if l == nil {
		return points, nil
	}
	if t := l.Transactions; t != nil && t.Type == "LIMITED" {
		for _, lim := range t.Limits {
			if lim.Type == "POINTS" && lim.Max != nil {
				points = min(points, *lim.Max)
			}
		}
	}
	if g := l.Global; g != nil && g.Type == "LIMITED" {
		for _, lim := range g.Limits {
			switch {
			case lim.Type == "BALANCE_BASED" && lim.Max != nil:
				points = min(points, max(*lim.Max-crd.Balance, 0))
			case lim.Type == "TIME_BASED" && lim.Points != nil && lim.Period != nil:
				unit, _ := lim.Period.CurrentPeriod["unit"].(string)
				if !periodUnits[unit] {
					continue // an unknown unit limits nothing
				}
				earned, err := cardEarnedSince(ctx, crd.ID, periodStart(clock.At(ctx), unit))
				if err != nil {
					return 0, err
				}
				points = min(points, max(lim.Points.Max-earned, 0))
			}
		}
	}
	return max(points, 0), nil
}

// belowMinimumSpend tells whether the card's definition requires a larger
// order than o to earn (transactions SPENDING {min_amount}); no order: no.
func belowMinimumSpend(ctx context.Context, crd *ent.Card, o *ent.Order) (bool, error) {
	if o == nil {
		return false, nil
	}
	d, err := CardDefinitionOf(ctx, crd)
	if err != nil {
		return false, err
	}
	l := earningLimitsOf(d)
	if l == nil || l.Transactions == nil || l.Transactions.Type != "LIMITED" {
		return false, nil
	}
	for _, lim := range l.Transactions.Limits {
		if lim.Type == "SPENDING" && lim.MinAmount != nil && o.TotalAmount < *lim.MinAmount {
			return true, nil
		}
	}
	return false, nil
}

// cardEarnedSince sums the points earning rules credited to the card
// since a time: one SUM over its transactions.
func cardEarnedSince(ctx context.Context, cardID string, since time.Time) (int64, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	var sums []struct {
		Sum int64 `json:"sum"`
	}
	err = c.CardTransaction.Query().Where(cardtransaction.CardID(cardID), cardtransaction.EarningRuleIDNotNil(),
		cardtransaction.TypeEQ(cardtransaction.TypePOINTS_ADDITION), cardtransaction.AmountGT(0),
		cardtransaction.CreatedAtGTE(since)).Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
	if err != nil {
		return 0, fmt.Errorf("summing the card's earned points: %w", err)
	}
	if len(sums) == 0 {
		return 0, nil
	}
	return sums[0].Sum, nil
}

// AllowsNegative tells whether the card's definition lets its balance go
// below zero (balance_settings.allow_negative).
func AllowsNegative(ctx context.Context, crd *ent.Card) (bool, error) {
	d, err := CardDefinitionOf(ctx, crd)
	if err != nil || d == nil || d.Settings == nil || d.Settings.BalanceSettings == nil {
		return false, err
	}
	return d.Settings.BalanceSettings.AllowNegative, nil
}
