package loyalty

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/points"
)

// A v2 card's points live in the same bucket store as a v1 card's
// (graph/points): buckets keyed by card_id (v1: voucher_id), so neither
// generation sees the other's, one ledger underneath. cards.balance stays
// the card's total; every credit makes a bucket dated by the earning
// effect's points_expiration, every debit empties buckets soonest-expiring
// first, and the daily job (loyaltyv1.RunDailyPoints) expires the buckets
// of both generations (ExpireCardBucket for these).

// cardBucketKey is the bucket owner of a v2 card. campaign_id stays null:
// it names v1 programs only.
func cardBucketKey(crd *ent.Card) points.Card {
	id := crd.ID
	return points.Card{CardID: &id}
}

// moveBuckets keeps the locked card's buckets in step with a booking:
// a credit makes a bucket dated by exp (nil: never expires), a debit
// empties buckets. An expiration has emptied its own bucket already.
func moveBuckets(ctx context.Context, c *ent.Client, crd *ent.Card, m CardMove, now time.Time) error {
	if m.Typ == cardtransaction.TypePOINTS_EXPIRED {
		return nil
	}
	k := cardBucketKey(crd)
	if m.Points < 0 {
		return points.Debit(ctx, c, k, -m.Points)
	}
	exp, err := bucketExpiry(m.expiration, now)
	if err != nil {
		return fmt.Errorf("dating points: %w", err)
	}
	typ := m.Typ
	if typ == "" {
		typ = cardtransaction.TypePOINTS_ADDITION
	}
	b, err := points.Credit(ctx, c, k, m.Points, exp, string(typ), now)
	if err != nil || b == nil || b.ExpiresAt == nil {
		return err
	}
	if err := c.PointsBucket.UpdateOne(b).SetDetails(map[string]any{"expiration_type": expirationType(m.expiration)}).Exec(ctx); err != nil {
		return fmt.Errorf("recording the bucket's expiration type: %w", err)
	}
	return nil
}

// expirationType names a dated bucket's kind of expiry as the documents do
// (the expiring-points list shows it).
func expirationType(e *jsonfield.PointsExpiration) string {
	switch {
	case e == nil:
		return "NO_EXPIRATION"
	case e.CalendarExpiration != nil:
		return "CALENDAR_EXPIRATION"
	case e.SlidingExpiration != nil:
		return "SLIDING_EXPIRATION"
	}
	return "ROLLING_EXPIRATION"
}

// bucketExpiry turns a v2 points_expiration into the engine's Expiry:
// rolling (value + unit DAY/MONTH/YEAR, default MONTH, optional rounding),
// calendar (the first of the dates on or after the day earned) or
// sliding (its period, counted from the day earned: later activity does
// not push it out yet). nil never expires.
func bucketExpiry(e *jsonfield.PointsExpiration, earned time.Time) (points.Expiry, error) {
	switch {
	case e == nil:
		return points.Expiry{Never: true}, nil
	case e.RollingExpiration != nil:
		return points.Expiry{Rules: periodRules(e.RollingExpiration.Period, e.RollingExpiration.Rounding)}, nil
	case e.SlidingExpiration != nil:
		return points.Expiry{Rules: periodRules(e.SlidingExpiration.Period, nil)}, nil
	case e.CalendarExpiration != nil:
		var first *time.Time
		for _, d := range e.CalendarExpiration.ExpirationDates {
			last, err := points.LastDayByRules(map[string]any{"period_type": "FIXED_DAY_OF_YEAR", "fixed_month": d.Month, "fixed_day": d.Day}, earned)
			if err != nil {
				return points.Expiry{}, err
			}
			if first == nil || last.Before(*first) {
				first = &last
			}
		}
		if first != nil {
			return points.Expiry{On: first}, nil
		}
	}
	return points.Expiry{Never: true}, nil
}

// periodRules are the engine's rules of a v2 period and rounding.
func periodRules(p, rounding *jsonfield.IntValue) map[string]any {
	if p == nil || p.Value == nil {
		return nil
	}
	r := map[string]any{"period_type": "MONTH", "period_value": *p.Value}
	if p.Unit != nil {
		switch *p.Unit {
		case "DAY":
			r["period_type"] = "DAY"
		case "YEAR":
			r["period_value"] = 12 * *p.Value
		}
	}
	if rounding != nil && rounding.Type != nil {
		r["rounding_type"] = *rounding.Type
		if *rounding.Type == "END_OF_PARTICULAR_MONTH" {
			r["rounding_type"] = "PARTICULAR_MONTH"
		}
		if rounding.Value != nil {
			r["rounding_value"] = *rounding.Value
		}
	}
	return r
}
