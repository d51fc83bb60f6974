package qualification

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
)

// QualifyCampaigns serves POST /v1/campaigns/qualification: the active,
// in-date code campaigns (DISCOUNT_COUPONS, GIFT_VOUCHERS,
// REFERRAL_PROGRAM; not STANDALONE ones, whose codes the vouchers'
// qualification lists) one of whose codes the customer could use on the
// order. Each campaign is checked through its newest active, in-date
// code held by nobody or by the customer (its rules are the campaign's
// and that code's); a campaign without such a code is not listed. At
// most limit campaigns, in the requested order (default newest first);
// at most MaxCandidates campaigns are evaluated.
func QualifyCampaigns(ctx context.Context, in LegacyInput) (*CampaignQualification, error) {
	r, err := in.check(CampaignOrders)
	if err != nil {
		return nil, err
	}
	now := clock.Now()
	cmps, err := r.codeCampaigns(ctx, now)
	if err != nil {
		return nil, err
	}
	// One representative code per campaign, read a pass at a time.
	codes := func(lo, hi int) ([]string, []int, error) {
		var out []string
		var idx []int
		for i := lo; i < hi; i++ {
			code, err := r.representative(ctx, cmps[i].ID, now)
			if err != nil {
				return nil, nil, err
			}
			if code != "" {
				out, idx = append(out, code), append(idx, i)
			}
		}
		return out, idx, nil
	}
	var picked []*ent.Campaign
	out, err := r.evaluate(ctx, len(cmps), codes, func(i int, _ *redemption.Qualified) { picked = append(picked, cmps[i]) })
	if err != nil {
		return nil, err
	}
	if picked == nil {
		picked = []*ent.Campaign{}
	}
	return &CampaignQualification{ID: newQualificationID(), CreatedAt: clock.Now(), TrackingID: out.TrackingID,
		Data: picked, Total: len(picked)}, nil
}

var campaignColumns = map[string]string{"created_at": campaign.FieldCreatedAt, "updated_at": campaign.FieldUpdatedAt,
	"type": campaign.FieldCampaignType, "code": campaign.FieldName, "category": campaign.FieldCategory,
	"campaign": campaign.FieldName}

// codeCampaigns reads the candidate campaigns in the requested order
// (then by id), at most MaxCandidates, with their category.
func (r *legacyRequest) codeCampaigns(ctx context.Context, now time.Time) ([]*ent.Campaign, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cmps, err := c.Campaign.Query().Where(publishedCodeCampaign(now)). // campaigns.go
										Order(r.order(campaignColumns), r.direction(campaign.FieldID)).Limit(MaxCandidates).
										WithAssignedCategory().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the code campaigns: %w", err)
	}
	return cmps, nil
}

// representative is the campaign's newest active, in-date code held by
// nobody or by the customer ("" when it has none).
func (r *legacyRequest) representative(ctx context.Context, campaignID string, now time.Time) (string, error) {
	return representativeCode(ctx, campaignID, now, r.holdable()) // campaigns.go
}
