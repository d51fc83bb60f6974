package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/tier"
	"github.com/promoengine/promoengine/graph/points"
	"github.com/promoengine/promoengine/graph/webhook"
)

// dailyBatch is how many due buckets one look-up of the daily job reads.
const dailyBatch = 200

// DailyReport counts what one run of the daily points job did.
type DailyReport struct {
	Activated, Expired int
	// AutoRedeemed counts the rewards auto-redeemed, TiersSettled the
	// cards whose tier was prolonged or expired.
	AutoRedeemed, TiersSettled int
}

// RunDailyPoints is the daily points job of the v1 and v2 cards (reference §3.5),
// for every project, at now: first the pending entries due today join
// their cards' balances, then auto-redeem rewards are redeemed where the
// balance covers them (auto_redeem.go), then tiers over time are prolonged
// or expire (tier_daily.go), then the ACTIVE buckets whose last day is before
// today expire (a POINTS_EXPIRATION transaction takes what is left in them
// off the balance, expired_points grows, and a
// voucher.loyalty_card.points_expired event is written). Each bucket is
// one transaction under its project; its card is locked first and its
// state moves with one guarded UPDATE, so any number of workers may run
// the job at once: each bucket is activated or expired exactly once, and
// a spend racing the expiry sees the bucket before or after, never both.
// A v2 card's bucket expires through loyalty.ExpireCardBucket (a
// POINTS_EXPIRED card transaction), under the same guarantees.
// ctx carries the ent client and the dialect; it needs no viewer.
func RunDailyPoints(ctx context.Context, now time.Time) (DailyReport, error) {
	var r DailyReport
	var firstErr error
	ctx = clock.WithNow(ctx, now)
	for _, step := range []struct {
		status pointsbucket.Status
		do     func(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (bool, error)
		count  *int
	}{{pointsbucket.StatusPENDING, activateDue, &r.Activated}, {pointsbucket.StatusACTIVE, expireDue, &r.Expired}} {
		if step.status == pointsbucket.StatusACTIVE {
			// Between activation and expiry (reference §3.5): auto-redeem
			// (auto_redeem.go), then tier expiry and prolongation
			// (tier_daily.go).
			n, err := autoRedeemDue(ctx)
			r.AutoRedeemed += n
			if err != nil && firstErr == nil {
				firstErr = err
			}
			n, err = tierPeriodsDue(ctx, now)
			r.TiersSettled += n
			if err != nil && firstErr == nil {
				firstErr = err
			}
			// The v2 tier structures' expiries and tracking periods
			// (graph/loyalty/tier_schedule.go).
			n, err = tier.SettleTierSchedules(ctx, now)
			r.TiersSettled += n
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}
		seen := map[string]bool{}
		for {
			due, err := points.Due(viewer.NewSystemContext(ctx), ent.FromContext(ctx), step.status, now, dailyBatch)
			if err != nil {
				return r, err
			}
			fresh := 0
			for _, b := range due {
				do := step.do
				if b.VoucherID == nil {
					// A v2 card's bucket: loyalty.ExpireCardBucket, or
					// loyalty.ActivateCardPending for a pending entry.
					if b.CardID == nil {
						continue
					}
					do = loyalty.ExpireCardBucket
					if step.status == pointsbucket.StatusPENDING {
						do = loyalty.ActivateCardPending
					}
				}
				if seen[b.ID] {
					continue
				}
				seen[b.ID] = true
				fresh++
				var done bool
				pctx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: b.ProjectID})
				err := store.InTx(pctx, func(ctx context.Context) error {
					c, err := store.Client(ctx)
					if err != nil {
						return err
					}
					done, err = do(ctx, c, b)
					return err
				})
				if err != nil {
					// One bucket that fails does not hold up the others;
					// the next run retries it.
					if firstErr == nil {
						firstErr = fmt.Errorf("daily points job: bucket %s: %w", b.ID, err)
					}
					continue
				}
				if done {
					*step.count++
				}
			}
			if fresh == 0 || len(due) < dailyBatch {
				break
			}
		}
	}
	return r, firstErr
}

// lockBucketCard locks the card of bucket b; a card deleted since (its
// program was deleted) leaves the bucket to settle as to, with nothing
// booked (nil card).
func lockBucketCard(ctx context.Context, c *ent.Client, b *ent.PointsBucket, from, to pointsbucket.Status) (*ent.Voucher, error) {
	card, err := campaign.LockVoucher(ctx, c, *b.VoucherID)
	if ent.IsNotFound(err) {
		_, err = points.Move(ctx, c, b.ID, from, to)
		return nil, err
	}
	return card, err
}

// activateDue activates a due pending entry unless another worker did.
func activateDue(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (bool, error) {
	card, err := lockBucketCard(ctx, c, b, pointsbucket.StatusPENDING, pointsbucket.StatusCANCELED)
	if err != nil || card == nil {
		return false, err
	}
	if _, err := activate(ctx, c, card, b, "AUTOMATIC"); err != nil {
		if b, rerr := c.PointsBucket.Get(ctx, b.ID); rerr == nil && b.Status != pointsbucket.StatusPENDING {
			return false, nil // activated or canceled meanwhile
		}
		return false, err
	}
	return true, nil
}

// expireDue expires an ACTIVE bucket past its day unless another worker
// did: what is left in it leaves the balance.
func expireDue(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (bool, error) {
	card, err := lockBucketCard(ctx, c, b, pointsbucket.StatusACTIVE, pointsbucket.StatusEXPIRED)
	if err != nil || card == nil {
		return false, err
	}
	ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusACTIVE, pointsbucket.StatusEXPIRED)
	if err != nil || !ok {
		return false, err
	}
	// Read after the card lock: spends before it have emptied the bucket.
	if b, err = c.PointsBucket.Get(ctx, b.ID); err != nil {
		return false, fmt.Errorf("reading bucket: %w", err)
	}
	left := b.Points
	if card.LoyaltyCard != nil && left > card.LoyaltyCard.Balance {
		left = card.LoyaltyCard.Balance
	}
	if left <= 0 {
		return true, nil
	}
	tx, bal, err := book(ctx, c, card, move{typ: vouchertransaction.TypePOINTS_EXPIRATION, points: -left,
		source: "Automation", operation: "AUTOMATIC", details: map[string]any{"bucket": map[string]any{"id": b.ID}}})
	if err != nil {
		return false, err
	}
	if err := countExpired(ctx, c, card, left); err != nil {
		return false, err
	}
	return true, webhook.Emit(ctx, "voucher.loyalty_card.points_expired", "voucher", card.ID, map[string]any{
		"voucher": card, "transaction": tx, "points": left,
		"buckets": []map[string]any{{"id": b.ID, "points": left, "expires_at": b.ExpiresAt.UTC().Format(time.DateOnly)}},
		"balance": bal})
}

// countExpired adds n to the locked card's expired_points.
func countExpired(ctx context.Context, c *ent.Client, card *ent.Voucher, n int64) error {
	l := *card.LoyaltyCard
	e := n
	if l.ExpiredPoints != nil {
		e += *l.ExpiredPoints
	}
	l.ExpiredPoints = &e
	if err := c.Voucher.UpdateOneID(card.ID).SetLoyaltyCard(&l).Exec(ctx); err != nil {
		return fmt.Errorf("counting expired points: %w", err)
	}
	card.LoyaltyCard = &l
	return nil
}
