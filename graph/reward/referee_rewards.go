package reward

import (
	"context"
	"errors"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/webhook"
)

// RewardConversion is loyalty.OnReferralConverted (set in graph/wiring.go):
// for a new conversion, in its transaction, it rewards the referee
// (RewardReferee) and the referrer (RewardReferrer). A conversion is
// recorded once per referee and program, so each is rewarded once however
// often the conversion is delivered.
func RewardConversion(ctx context.Context, conv *ent.ReferralConversion) error {
	if err := RewardReferee(ctx, conv); err != nil {
		return err
	}
	return RewardReferrer(ctx, conv)
}

// RewardReferee issues a double-sided program's referee reward (reference
// §7.3 step 3): its amount of points (LOYALTY_CARD) or credits
// (GIFT_VOUCHER) added to the referee's card of the parent campaign — a
// card published to the referee first when they hold none — as one
// POINTS_ADDITION or CREDITS_ADDITION transaction naming the conversion,
// with one customer.rewarded webhook event. A parent campaign deleted or
// unable to publish since the program was set up is skipped: the
// conversion does not fail for it.
func RewardReferee(ctx context.Context, conv *ent.ReferralConversion) error {
	_, cmp, err := referralProgram(ctx, conv) // referral_rewards.go
	if err != nil {
		return err
	}
	rr := campaign.RefereeRewardOf(cmp.ReferralProgram)
	if rr == nil {
		return nil
	}
	kind := CampaignLoyaltyProgram
	if rr.Type == campaign.RefereeRewardCredits {
		kind = CampaignGiftVouchers
	}
	card, err := heldOrPublished(ctx, rr.CampaignID, conv.RefereeID)
	var refusal *apperr.Error
	if errors.As(err, &refusal) {
		return nil // the parent campaign is gone or cannot publish: skipped
	}
	if err != nil {
		return fmt.Errorf("finding referee %s's card: %w", conv.RefereeID, err)
	}
	details := map[string]any{"referral": map[string]any{"id": conv.ID, "campaign_id": cmp.ID, "voucher_id": conv.VoucherID,
		"referrer_id": conv.ReferrerID, "related_object_id": conv.EventID}}
	if card, err = topUp(ctx, card, kind, rr.Amount, "Referee reward of "+cmp.Name, details); err != nil {
		return fmt.Errorf("rewarding referee %s: %w", conv.RefereeID, err)
	}
	balance := map[string]any{"type": "loyalty_card", "points": rr.Amount, "object": "balance",
		"related_object": map[string]any{"id": card.ID, "type": "voucher"}}
	if kind == CampaignGiftVouchers {
		balance = map[string]any{"type": "gift_voucher", "amount": rr.Amount, "object": "balance",
			"related_object": map[string]any{"id": card.ID, "type": "voucher"}}
	}
	return webhook.Emit(ctx, "customer.rewarded", "customer", conv.RefereeID, map[string]any{
		"customer": map[string]any{"id": conv.RefereeID, "object": "customer"},
		"campaign": map[string]any{"id": cmp.ID, "name": cmp.Name, "object": "campaign"},
		"voucher":  map[string]any{"id": conv.VoucherID, "object": "voucher"},
		"referrer": map[string]any{"id": conv.ReferrerID, "object": "customer"},
		"holder":   voucherDoc(card), "referee_reward": cmp.ReferralProgram["referee_reward"], "balance": balance})
}
