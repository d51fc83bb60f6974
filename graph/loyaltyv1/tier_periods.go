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

// Tiers over time (reference §5): a program's loyalty_tiers_expiration
// with qualification_type POINTS_IN_PERIOD places a member by the points
// earned (accruals, additions, activated pending points, transfers in)
// within the calendar-aligned qualification_period (MONTH, QUARTER,
// HALF_YEAR, YEAR; UTC) that holds now. With expiration_date.type
// END_OF_NEXT_PERIOD a tier reached in one period is kept through the
// next, so the member holds the higher of the tiers of this period's and
// the previous period's points. BALANCE (the default) places a member by
// the spendable balance. The tier is computed when asked, from the
// transactions, at the context's clock (clock.At), so moving the clock
// moves the tier; the daily job records what a period's end changed
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
// context's clock, by its program's tier settings.
func qualifyingPoints(ctx context.Context, card *ent.Voucher) (int64, error) {
	balance := int64(0)
	if card.LoyaltyCard != nil {
		balance = card.LoyaltyCard.Balance
	}
	if card.CampaignID == nil {
		return balance, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	cmp, err := points.Program(ctx, c, *card.CampaignID)
	if err != nil {
		return 0, fmt.Errorf("reading the card's program: %w", err)
	}
	settings := cmp.LoyaltyTiersExpiration
	months := periodMonths(settings["qualification_period"])
	if settings["qualification_type"] != "POINTS_IN_PERIOD" || months == 0 {
		return balance, nil
	}
	now := clock.At(ctx)
	start := periodStart(months, now)
	earned, err := earnedBetween(ctx, c, card.ID, start, now)
	if err != nil {
		return 0, err
	}
	if exp, _ := settings["expiration_date"].(map[string]any); exp != nil && exp["type"] == "END_OF_NEXT_PERIOD" {
		before, err := earnedBetween(ctx, c, card.ID, start.AddDate(0, -months, 0), start.Add(-time.Millisecond))
		if err != nil {
			return 0, err
		}
		earned = max(earned, before)
	}
	return earned, nil
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
