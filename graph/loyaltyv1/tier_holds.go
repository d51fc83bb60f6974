package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
)

// What holds a card in a tier at a moment (tier_rules.go has the
// settings). The tier is computed, never stored: the highest of the
// qualifying amounts that still count places the card —
//   - by balance (BALANCE_DROP, the default): the balance now;
//   - by balance with CUSTOM expiry: the highest balance since
//     windowStart(at) — a balance that stopped qualifying at an instant d
//     is held through until(d), the extended and rounded date;
//   - by points earned in a period: each period's points count from the
//     start of the period they are valid in (theirs, or the next with
//     NEXT_PERIOD) through the end of their last period (END_OF_PERIOD:
//     that one, END_OF_NEXT_PERIOD: one more), extended and rounded.
// A higher tier takes over at once (the highest amount wins).

// holdSpan is one amount that counts for the card's tier: from when, and
// through when (nil: as long as it lasts, i.e. the current balance).
type holdSpan struct {
	points int64
	from   *time.Time
	until  *time.Time
}

// tierHold is what counts for a card's tier at a moment.
type tierHold struct {
	rules tierRules
	spans []holdSpan
}

// best is the highest amount that counts (0 without any).
func (h tierHold) best() int64 {
	var p int64
	for i, s := range h.spans {
		if i == 0 || s.points > p {
			p = s.points
		}
	}
	return p
}

// maxLookBack bounds how many past qualification periods are read.
const maxLookBack = maxExtendMonths + 3

// holdAt computes what counts for the card's tier at at under the program
// cmp's settings.
func holdAt(ctx context.Context, c *ent.Client, card *ent.Voucher, cmp *ent.Campaign, at time.Time) (tierHold, error) {
	balance := int64(0)
	if card.LoyaltyCard != nil {
		balance = card.LoyaltyCard.Balance
	}
	var r tierRules
	if cmp != nil {
		r = parseTierRules(cmp.LoyaltyTiersExpiration)
	}
	h := tierHold{rules: r}
	switch {
	case r.months > 0:
		now := periodStart(r.months, at)
		for k := 0; k < maxLookBack; k++ {
			ps := now.AddDate(0, -k*r.months, 0)
			from := ps.AddDate(0, r.shift*r.months, 0)
			until := r.until(ps.AddDate(0, r.periodEnds()*r.months, 0).Add(-time.Millisecond))
			if until.Before(at) {
				break // older periods end earlier still
			}
			if from.After(at) {
				continue // counts from the next period on
			}
			end := ps.AddDate(0, r.months, 0).Add(-time.Millisecond)
			if end.After(at) {
				end = at
			}
			earned, err := earnedBetween(ctx, c, card.ID, ps, end)
			if err != nil {
				return h, err
			}
			h.spans = append(h.spans, holdSpan{points: earned, from: &from, until: &until})
		}
	case r.byBalanceWindow():
		h.spans = append(h.spans, holdSpan{points: balance})
		high, err := highestBalanceSince(ctx, c, card.ID, r.windowStart(at), at)
		if err != nil {
			return h, err
		}
		if high > balance {
			h.spans = append(h.spans, holdSpan{points: high}) // its until: balanceHoldUntil
		}
	default:
		h.spans = append(h.spans, holdSpan{points: balance})
	}
	return h, nil
}

// highestBalanceSince is the highest balance the card had in [from, to]:
// the balance it entered the window with and each one it reached there.
func highestBalanceSince(ctx context.Context, c *ent.Client, cardID string, from, to time.Time) (int64, error) {
	var agg []struct {
		Max *int64 `json:"max"`
	}
	err := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(cardID), vouchertransaction.CreatedAtGTE(from),
		vouchertransaction.CreatedAtLTE(to)).Aggregate(ent.Max(vouchertransaction.FieldBalance)).Scan(ctx, &agg)
	if err != nil {
		return 0, fmt.Errorf("reading the card's balances: %w", err)
	}
	var high int64
	if len(agg) > 0 && agg[0].Max != nil {
		high = *agg[0].Max
	}
	before, err := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(cardID), vouchertransaction.CreatedAtLT(from)).
		Order(ent.Desc(vouchertransaction.FieldCreatedAt), ent.Desc(vouchertransaction.FieldID)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return 0, fmt.Errorf("reading the card's balance: %w", err)
	}
	if before != nil {
		high = max(high, before.Balance)
	}
	return high, nil
}

// balanceHoldUntil is the last instant the card, placed by balance with
// CUSTOM expiry, keeps a tier whose lower bound is floor: until() of the
// move that took its balance below floor last (nil: the balance is still
// there, or never was).
func balanceHoldUntil(ctx context.Context, c *ent.Client, r tierRules, cardID string, floor, balance int64, at time.Time) (*time.Time, error) {
	if balance >= floor {
		return nil, nil
	}
	q := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(cardID), vouchertransaction.CreatedAtLTE(at))
	high, err := q.Clone().Where(vouchertransaction.BalanceGTE(floor)).
		Order(ent.Desc(vouchertransaction.FieldCreatedAt), ent.Desc(vouchertransaction.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the card's balances: %w", err)
	}
	drop, err := q.Where(vouchertransaction.Or(vouchertransaction.CreatedAtGT(high.CreatedAt),
		vouchertransaction.And(vouchertransaction.CreatedAt(high.CreatedAt), vouchertransaction.IDGT(high.ID)))).
		Order(ent.Asc(vouchertransaction.FieldCreatedAt), ent.Asc(vouchertransaction.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the card's balances: %w", err)
	}
	u := r.until(drop.CreatedAt.Add(-time.Millisecond))
	return &u, nil
}

// tierWindow is when the card's hold on a tier whose lower bound is floor
// started and ends (either nil: unknown, or open).
func tierWindow(ctx context.Context, c *ent.Client, h tierHold, card *ent.Voucher, floor int64, at time.Time) (from, until *time.Time, err error) {
	if h.rules.byBalanceWindow() {
		balance := int64(0)
		if card.LoyaltyCard != nil {
			balance = card.LoyaltyCard.Balance
		}
		until, err = balanceHoldUntil(ctx, c, h.rules, card.ID, floor, balance, at)
		return nil, until, err
	}
	for _, s := range h.spans {
		if s.points < floor || s.until == nil {
			continue
		}
		if until == nil || s.until.After(*until) {
			until = s.until
		}
		if s.from != nil && (from == nil || s.from.Before(*from)) {
			from = s.from
		}
	}
	return from, until, nil
}
