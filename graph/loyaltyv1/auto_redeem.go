package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/reward"
)

// Auto-redeem (reference §6.6): a loyalty campaign may have one reward
// assignment with auto_redeem (graph/reward/assignments.go). Whenever
// points are credited to a card of the campaign (an earning rule's
// accrual, a balance addition) and the balance covers the assignment's
// cost, the reward is redeemed for the card's holder at once, in the same
// transaction, through the member redemption (reward.RedeemReward: one
// redemption, one POINTS_REDEMPTION, the card lock already held) — again
// while the balance still covers it, at most autoRedeemPerMove times per
// credit, autoRedeemPerDay times per card and AutoRedeemPerProgramDay
// times per program per UTC day (the documents' limits; going past them
// leaves the points on the card). Auto
// redemptions carry metadata {auto_redeem: true}, which is how the day's
// count finds them. A reward out of stock is not redeemed (the points
// stay); any other refusal fails the credit with it, as one transaction.
// Earning on an order auto-redeems too, except when the order is written
// by a redemption (customer.InRedemption: the redemption may be booking
// the same card); the daily job (autoRedeemDue) then redeems what the
// balances cover, as the reference says it runs "in the daily job and
// after accruals".

// The documents' auto-redeem limits.
const (
	autoRedeemPerMove = 25
	autoRedeemPerDay  = 10
)

// AutoRedeemPerProgramDay is the documents' limit of automatic
// redemptions in one program per UTC day (250). Counted race-free: a
// credit that would auto-redeem takes a transaction-scoped lock on the
// program's day (store.LockKey; SQLite has one writer) after its card's
// lock, then counts the program's auto-redemptions of the day (redemptions
// of the campaign with metadata auto_redeem, off the (campaign_id,
// created_at) index), so credits on different cards of one program cannot
// both take the last one. Only credits that redeem wait on it. A variable
// so that tests can lower it.
var AutoRedeemPerProgramDay = 250

// autoRedeemMarker is the metadata key of an automatic redemption.
const autoRedeemMarker = "auto_redeem"

// autoRedeemAssignment is the campaign's auto-redeem assignment (nil:
// none). Callers read it before they lock the card.
func autoRedeemAssignment(ctx context.Context, c *ent.Client, campaignID *string) (*ent.V1RewardAssignment, error) {
	if campaignID == nil {
		return nil, nil
	}
	a, err := c.V1RewardAssignment.Query().Where(v1rewardassignment.CampaignID(*campaignID),
		v1rewardassignment.AutoRedeem(true)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the auto-redeem reward: %w", err)
	}
	return a, nil
}

// autoRedeem redeems assignment a's reward for card v while its balance
// covers the cost (v as booked: its loyalty_card is current).
func autoRedeem(ctx context.Context, c *ent.Client, v *ent.Voucher, a *ent.V1RewardAssignment) error {
	_, err := autoRedeemCount(ctx, c, v, a)
	return err
}

// autoRedeemCount is autoRedeem, telling how many rewards it redeemed.
func autoRedeemCount(ctx context.Context, c *ent.Client, v *ent.Voucher, a *ent.V1RewardAssignment) (int, error) {
	if a == nil || v.HolderID == nil || v.LoyaltyCard == nil || a.Points == nil || *a.Points <= 0 ||
		v.LoyaltyCard.Balance < *a.Points {
		return 0, nil
	}
	now := clock.At(ctx).UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	done, err := c.Redemption.Query().Where(redemption.VoucherID(v.ID), redemption.CreatedAtGTE(day),
		func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(redemption.FieldMetadata, true, sqljson.Path(autoRedeemMarker)))
		}).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting today's auto-redemptions: %w", err)
	}
	if v.CampaignID == nil {
		return 0, nil
	}
	if err := store.LockKey(ctx, "loyalty-auto-redeem:"+*v.CampaignID+":"+day.Format(time.DateOnly)); err != nil {
		return 0, err
	}
	programDone, err := c.Redemption.Query().Where(redemption.CampaignID(*v.CampaignID), redemption.CreatedAtGTE(day),
		func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(redemption.FieldMetadata, true, sqljson.Path(autoRedeemMarker)))
		}).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting the program's auto-redemptions today: %w", err)
	}
	rw, err := c.V1Reward.Get(ctx, a.RewardID)
	if err != nil {
		return 0, fmt.Errorf("reading the auto-redeem reward: %w", err)
	}
	balance, n := v.LoyaltyCard.Balance, 0
	for ; n < autoRedeemPerMove && done < autoRedeemPerDay && programDone+n < AutoRedeemPerProgramDay && balance >= *a.Points; n++ {
		if rw.Stock != nil && rw.Redeemed+int64(n) >= *rw.Stock {
			break // out of stock: the points stay on the card
		}
		id := a.RewardID
		if _, err := reward.RedeemReward(ctx, v.CampaignID, v.Code, reward.MemberRedemptionInput{
			Reward: &reward.MemberRewardInput{ID: &id, AssignmentID: &a.ID}, Metadata: map[string]any{autoRedeemMarker: true}}); err != nil {
			return n, fmt.Errorf("auto-redeeming reward %s: %w", id, err)
		}
		done++
		balance -= *a.Points
	}
	return n, nil
}

// autoRedeemDue is the daily job's auto-redeem step (reference §3.5 step
// 2, §6.6): for every auto-redeem assignment of every project, each held
// card of its campaign whose balance covers the cost is locked and
// auto-redeemed by autoRedeemCount, in its own transaction. The lock,
// the balance re-read under it and the day's count (metadata
// auto_redeem) make any number of workers in any number of processes
// redeem what one would: never past the balance nor the daily limit.
func autoRedeemDue(ctx context.Context) (int, error) {
	sys := viewer.NewSystemContext(ctx)
	c := ent.FromContext(ctx)
	as, err := c.V1RewardAssignment.Query().Where(v1rewardassignment.AutoRedeem(true), v1rewardassignment.PointsNotNil(),
		v1rewardassignment.PointsGT(0)).All(sys)
	if err != nil {
		return 0, fmt.Errorf("daily points job: reading auto-redeem rewards: %w", err)
	}
	done := 0
	var firstErr error
	for _, a := range as {
		after := ""
		for {
			q := c.Voucher.Query().Where(voucher.CampaignID(a.CampaignID), voucher.HolderIDNotNil(),
				voucher.TypeEQ(jsonfield.VoucherTypeLoyaltyCard), func(s *sql.Selector) {
					s.Where(sqljson.ValueGTE(voucher.FieldLoyaltyCard, *a.Points, sqljson.Path("balance")))
				}).Order(voucher.ByID()).Limit(dailyBatch)
			if after != "" {
				q.Where(voucher.IDGT(after))
			}
			ids, err := q.IDs(sys)
			if err != nil {
				return done, fmt.Errorf("daily points job: reading cards to auto-redeem: %w", err)
			}
			for _, id := range ids {
				pctx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: a.ProjectID})
				var n int
				err := store.InTx(pctx, func(ctx context.Context) error {
					c, err := store.Client(ctx)
					if err != nil {
						return err
					}
					v, err := campaign.LockVoucher(ctx, c, id)
					if err != nil {
						return err
					}
					cur, err := autoRedeemAssignment(ctx, c, v.CampaignID)
					if err != nil || cur == nil {
						return err
					}
					n, err = autoRedeemCount(ctx, c, v, cur)
					return err
				})
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("daily points job: auto-redeem on card %s: %w", id, err)
				}
				done += n
			}
			if len(ids) < dailyBatch {
				break
			}
			after = ids[len(ids)-1]
		}
	}
	return done, firstErr
}
