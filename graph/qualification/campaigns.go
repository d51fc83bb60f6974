package qualification

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
)

// Campaigns as redeemables (ALL, AUDIENCE_ONLY; docs/qualifications.md
// "Campaigns as redeemables"): a code campaign whose codes are meant to be
// published, of which the customer holds no usable code yet, is one entry
// {id: camp_…, object: campaign}. It is checked, as the legacy campaign
// qualification checks it, through a representative: its newest active,
// in-date code held by nobody (the campaign's and that code's rules,
// computed alone on the order). The code itself is never shown.

// ObjectCampaign is a campaign entry's object.
const ObjectCampaign = "campaign"

// publishedCodeCampaign selects the active, in-date campaigns whose codes
// are meant to be published: DISCOUNT_COUPONS, GIFT_VOUCHERS and
// REFERRAL_PROGRAM, not STANDALONE ones (their generic codes are listed as
// vouchers). The legacy campaign qualification reads the same campaigns.
func publishedCodeCampaign(now time.Time) predicate.Campaign {
	return campaign.And(activeCampaign(now), tiersnapshot.CodeCampaignToPublish())
}

// campaignOnlyOut are the filter fields a campaign has no value of: a
// condition on them never holds for a campaign entry (with AND it leaves
// campaigns out; with OR another condition may still bring them in).
var campaignOnlyOut = map[string]bool{"code": true, "voucher_type": true, "holder_role": true}

// campaignCandidates reads the code campaigns created before the cursor,
// newest first (at most MaxCandidates+1) with their category, leaving out
// those of which the customer (by id or source_id) already holds an
// active, in-date code: that code is the offer's entry.
func campaignCandidates(ctx context.Context, cust *customer.CustomerInput, now time.Time, before *time.Time) ([]candidate, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Campaign.Query().Where(publishedCodeCampaign(now))
	if cust != nil && (cust.ID != nil || cust.SourceID != nil) {
		q = q.Where(campaign.Not(campaign.HasVouchersWith(heldBy(cust.ID, cust.SourceID), usableVoucher(now))))
	}
	if before != nil {
		q = q.Where(campaign.CreatedAtLT(*before))
	}
	cmps, err := q.Order(ent.Desc(campaign.FieldCreatedAt), ent.Desc(campaign.FieldID)).Limit(MaxCandidates + 1).
		WithAssignedCategory().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing candidate campaigns: %w", err)
	}
	out := make([]candidate, len(cmps))
	for i, cmp := range cmps {
		out[i] = candidate{object: ObjectCampaign, id: cmp.ID, createdAt: cmp.CreatedAt, campaign: cmp, fields: fields{
			"resource_id": cmp.ID, "resource_type": ObjectCampaign, "campaign_id": cmp.ID,
			"campaign_type": string(cmp.CampaignType), "category_id": deref(cmp.CategoryID)}}
	}
	return out, nil
}

// withRepresentatives gives each campaign among cands the code it is
// checked through (its newest active, in-date code held by nobody) and
// leaves out a campaign that has none; other candidates pass unchanged.
// The codes are read one campaign at a time, for the pass being
// evaluated only.
func withRepresentatives(ctx context.Context, cands []candidate, now time.Time) ([]candidate, error) {
	out := make([]candidate, 0, len(cands))
	for _, cand := range cands {
		if cand.object != ObjectCampaign {
			out = append(out, cand)
			continue
		}
		code, err := representativeCode(ctx, cand.id, now, voucher.HolderIDIsNil())
		if err != nil {
			return nil, err
		}
		if code != "" {
			cand.code = code
			out = append(out, cand)
		}
	}
	return out, nil
}

// representativeCode is the campaign's newest active, in-date code that
// holder selects ("" when it has none).
func representativeCode(ctx context.Context, campaignID string, now time.Time, holder predicate.Voucher) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	codes, err := c.Voucher.Query().Where(voucher.CampaignID(campaignID), usableVoucher(now), holder).
		Order(ent.Desc(voucher.FieldCreatedAt), ent.Desc(voucher.FieldID)).Limit(1).
		Select(voucher.FieldCode).Strings(ctx)
	if err != nil {
		return "", fmt.Errorf("reading a code of campaign %s: %w", campaignID, err)
	}
	if len(codes) == 0 {
		return "", nil
	}
	return codes[0], nil
}
