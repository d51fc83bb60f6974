package campaign

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
)

// A referral program's referee reward (reference §7.1 and §7.3 step 3;
// campaigns.json ReferralProgram.referee_reward): a double-sided program
// adds amount points (type LOYALTY_CARD) or credits in cents (type
// GIFT_VOUCHER) to the referee's card of the parent campaign
// (related_object_parent.id: a LOYALTY_PROGRAM or GIFT_VOUCHERS campaign),
// publishing one first when the referee holds none.
// graph/reward.RewardReferee issues it, once per conversion.

// Referee reward types.
const (
	RefereeRewardPoints  = "LOYALTY_CARD"
	RefereeRewardCredits = "GIFT_VOUCHER"
	// MaxRefereeRewardAmount bounds the amount (points or cents).
	MaxRefereeRewardAmount = 1_000_000_000_000
)

// RefereeReward is a stored referee reward: the parent campaign, the
// reward type and its amount.
type RefereeReward struct {
	CampaignID string
	Type       string
	Amount     int64
}

// refereeRewardCampaignTypes are the parent campaign types of each reward type.
var refereeRewardCampaignTypes = map[string]campaign.CampaignType{
	RefereeRewardPoints:  campaign.CampaignTypeLOYALTY_PROGRAM,
	RefereeRewardCredits: campaign.CampaignTypeGIFT_VOUCHERS,
}

// checkRefereeReward checks a referral_program's referee_reward (absent or
// null: none): type LOYALTY_CARD or GIFT_VOUCHER, an integer amount from 1
// to MaxRefereeRewardAmount, and a parent campaign of the project of the
// matching type (LOYALTY_PROGRAM, GIFT_VOUCHERS); its name and object are
// filled in. A refusal is 400 invalid_payload, an unknown campaign 404.
func checkRefereeReward(ctx context.Context, rp map[string]any) error {
	raw, ok := rp["referee_reward"]
	if !ok || raw == nil {
		return nil
	}
	doc, ok := raw.(map[string]any)
	if !ok {
		return apperr.InvalidPayload("Property .referral_program.referee_reward must be an object")
	}
	typ, _ := doc["type"].(string)
	want, ok := refereeRewardCampaignTypes[typ]
	if !ok {
		return apperr.InvalidPayload("Property .referral_program.referee_reward.type must be one of LOYALTY_CARD, GIFT_VOUCHER")
	}
	if n, ok := points.WholeNumber(doc["amount"]); !ok || n < 1 || n > MaxRefereeRewardAmount {
		return apperr.InvalidPayload("Property .referral_program.referee_reward.amount must be an integer from 1 to %d", int64(MaxRefereeRewardAmount))
	}
	parent, _ := doc["related_object_parent"].(map[string]any)
	id, _ := parent["id"].(string)
	if id == "" {
		return apperr.InvalidPayload("Property .referral_program.referee_reward.related_object_parent.id is required")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cmp, err := c.Campaign.Query().Where(campaign.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("campaign", id)
	}
	if err != nil {
		return err
	}
	if cmp.CampaignType != want {
		return apperr.InvalidPayload("Property .referral_program.referee_reward.related_object_parent.id: a %s reward needs a %s campaign, %s is %s",
			typ, want, id, cmp.CampaignType)
	}
	doc["related_object_parent"] = map[string]any{"id": cmp.ID, "name": cmp.Name, "object": "CAMPAIGN"}
	return nil
}

// RefereeRewardOf is the stored referral_program's referee reward (nil: none).
func RefereeRewardOf(rp map[string]any) *RefereeReward {
	doc, _ := rp["referee_reward"].(map[string]any)
	parent, _ := doc["related_object_parent"].(map[string]any)
	id, _ := parent["id"].(string)
	typ, _ := doc["type"].(string)
	n, ok := points.WholeNumber(doc["amount"])
	if id == "" || typ == "" || !ok || n < 1 {
		return nil
	}
	return &RefereeReward{CampaignID: id, Type: typ, Amount: int64(n)}
}
