package reward

import (
	"context"
	"errors"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/webhook"
)

// RewardReferrer is the referrer half of RewardConversion (referee_rewards.go):
// for a new conversion, in its transaction, it issues the rewards of the
// program's referral tiers the conversion meets to the referrer — every
// EACH tier, and an AT_LEAST tier when this is the referrer's N-th
// converted referee in the program (conversions of one referrer are
// recorded one at a time, so N is reached once), each only when the
// referrer is in the tier's segment, if it names one — each through Issue as a
// member redemption would (a coupon, credits, points, a unit of a
// product), with one customer.rewarded webhook event. A reward deleted or
// out of stock since the tier was set is skipped: the referee's
// conversion does not fail for it.
func RewardReferrer(ctx context.Context, conv *ent.ReferralConversion) error {
	c, cmp, err := referralProgram(ctx, conv)
	if err != nil {
		return err
	}
	tiers := campaign.ReferralTiers(cmp.ReferralProgram)
	if len(tiers) == 0 {
		return nil
	}
	n, err := c.ReferralConversion.Query().Where(referralconversion.CampaignID(conv.CampaignID),
		referralconversion.ReferrerID(conv.ReferrerID)).Count(ctx)
	if err != nil {
		return fmt.Errorf("counting referrals: %w", err)
	}
	for _, tier := range tiers {
		if !tier.Each && int64(n) != tier.AtLeast {
			continue
		}
		if tier.SegmentID != "" { // a tier for the referrers of a segment
			in, err := c.SegmentMember.Query().Where(segmentmember.SegmentID(tier.SegmentID),
				segmentmember.CustomerID(conv.ReferrerID)).Exist(ctx)
			if err != nil {
				return fmt.Errorf("reading the referrer's segments: %w", err)
			}
			if !in {
				continue
			}
		}
		for _, id := range tier.Rewards {
			if err := issueReferrerReward(ctx, cmp, conv, tier, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// issueReferrerReward issues one tier reward to the referrer.
func issueReferrerReward(ctx context.Context, cmp *ent.Campaign, conv *ent.ReferralConversion, tier campaign.ReferralTier, rewardID string) error {
	referrer := conv.ReferrerID
	out, err := Issue(ctx, redemption.RewardIssue{RewardID: rewardID, RedemptionID: conv.EventID, CustomerID: &referrer})
	var refusal *apperr.Error
	if errors.As(err, &refusal) {
		return nil // deleted or out of stock since: skipped
	}
	if err != nil {
		return fmt.Errorf("rewarding referrer %s: %w", referrer, err)
	}
	data := map[string]any{"customer": map[string]any{"id": referrer, "object": "customer"},
		"campaign": map[string]any{"id": cmp.ID, "name": cmp.Name, "object": "campaign"},
		"voucher":  map[string]any{"id": conv.VoucherID, "object": "voucher"},
		"referee":  map[string]any{"id": conv.RefereeID, "object": "customer"},
		"reward":   out,
		"referral_tier": map[string]any{"id": tier.ID, "campaign_id": cmp.ID, "banner": tier.Document["name"],
			"parameters": tier.Document["conversions"]}}
	return webhook.Emit(ctx, "customer.rewarded", "customer", referrer, data)
}

// referralProgram is the referral program conv converted in, with the
// client that read it.
func referralProgram(ctx context.Context, conv *ent.ReferralConversion) (*ent.Client, *ent.Campaign, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, nil, err
	}
	cmp, err := c.Campaign.Get(ctx, conv.CampaignID)
	if err != nil {
		return nil, nil, fmt.Errorf("reading referral program: %w", err)
	}
	return c, cmp, nil
}
