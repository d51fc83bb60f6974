package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/internal/clock"
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
// credit and autoRedeemPerDay times per card per UTC day (the documents'
// limits; going past them leaves the points on the card). Auto
// redemptions carry metadata {auto_redeem: true}, which is how the day's
// count finds them. A reward out of stock is not redeemed (the points
// stay); any other refusal fails the credit with it, as one transaction.
// Earning on an order (which may run inside the order's own redemption of
// the card) and the daily job do not auto-redeem (docs/loyalty.md).

// The documents' auto-redeem limits.
const (
	autoRedeemPerMove = 25
	autoRedeemPerDay  = 10
)

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
	if a == nil || v.HolderID == nil || v.LoyaltyCard == nil || a.Points == nil || *a.Points <= 0 ||
		v.LoyaltyCard.Balance < *a.Points {
		return nil
	}
	now := clock.At(ctx).UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	done, err := c.Redemption.Query().Where(redemption.VoucherID(v.ID), redemption.CreatedAtGTE(day),
		func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(redemption.FieldMetadata, true, sqljson.Path(autoRedeemMarker)))
		}).Count(ctx)
	if err != nil {
		return fmt.Errorf("counting today's auto-redemptions: %w", err)
	}
	rw, err := c.V1Reward.Get(ctx, a.RewardID)
	if err != nil {
		return fmt.Errorf("reading the auto-redeem reward: %w", err)
	}
	balance := v.LoyaltyCard.Balance
	for n := 0; n < autoRedeemPerMove && done < autoRedeemPerDay && balance >= *a.Points; n++ {
		if rw.Stock != nil && rw.Redeemed+int64(n) >= *rw.Stock {
			break // out of stock: the points stay on the card
		}
		id := a.RewardID
		if _, err := reward.RedeemReward(ctx, v.CampaignID, v.Code, reward.MemberRedemptionInput{
			Reward: &reward.MemberRewardInput{ID: &id, AssignmentID: &a.ID}, Metadata: map[string]any{autoRedeemMarker: true}}); err != nil {
			return fmt.Errorf("auto-redeeming reward %s: %w", id, err)
		}
		done++
		balance -= *a.Points
	}
	return nil
}
