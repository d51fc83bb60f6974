package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
)

// Tiers over time (reference §5): the points that place a card in a tier
// at the context's clock (clock.At), by its program's
// loyalty_tiers_expiration — the balance, or the points earned
// (accruals, additions, activated pending points, transfers in) in the
// calendar qualification periods that still count (tier_rules.go parses
// the settings, tier_holds.go computes what counts). Moving the clock
// moves the tier; the daily job records what the clock changed
// (tier_daily.go).

// earnedTypes are the transactions that count as points earned.
var earnedTypes = []vouchertransaction.Type{vouchertransaction.TypePOINTS_ACCRUAL, vouchertransaction.TypePOINTS_ADDITION,
	vouchertransaction.TypePENDING_POINTS_ACTIVATION, vouchertransaction.TypePOINTS_TRANSFER_IN}

// periodMonths is the length of a qualification period in months (0: unknown).
func periodMonths(period any) int {
	switch period {
	case "MONTH":
		return 1
	case "QUARTER":
		return 3
	case "HALF_YEAR":
		return 6
	case "YEAR":
		return 12
	}
	return 0
}

// periodStart is the start (UTC) of the calendar period of months that holds t.
func periodStart(months int, t time.Time) time.Time {
	t = t.UTC()
	m := (int(t.Month())-1)/months*months + 1
	return time.Date(t.Year(), time.Month(m), 1, 0, 0, 0, 0, time.UTC)
}

// qualifyingPoints are the points that place the card in a tier at the
// context's clock, by its program's tier settings (tier_holds.go).
func qualifyingPoints(ctx context.Context, card *ent.Voucher) (int64, error) {
	h, err := cardHold(ctx, card)
	if err != nil {
		return 0, err
	}
	return h.best(), nil
}

// cardHold is what counts for the card's tier at the context's clock.
func cardHold(ctx context.Context, card *ent.Voucher) (tierHold, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return tierHold{}, err
	}
	var cmp *ent.Campaign
	if card.CampaignID != nil {
		if cmp, err = points.Program(ctx, c, *card.CampaignID); err != nil {
			return tierHold{}, fmt.Errorf("reading the card's program: %w", err)
		}
	}
	return holdAt(ctx, c, card, cmp, clock.At(ctx))
}

// earnedBetween sums the points the card earned in [from, to].
func earnedBetween(ctx context.Context, c *ent.Client, cardID string, from, to time.Time) (int64, error) {
	var sum []struct {
		Sum int64 `json:"sum"`
	}
	err := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(cardID), vouchertransaction.TypeIn(earnedTypes...),
		vouchertransaction.CreatedAtGTE(from), vouchertransaction.CreatedAtLTE(to)).
		Aggregate(ent.Sum(vouchertransaction.FieldAmount)).Scan(ctx, &sum)
	if err != nil {
		return 0, fmt.Errorf("summing earned points: %w", err)
	}
	if len(sum) == 0 {
		return 0, nil
	}
	return sum[0].Sum, nil
}
