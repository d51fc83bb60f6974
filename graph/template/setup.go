package template

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
)

// SetUpCampaign serves REST POST /v1/templates/campaigns/{id}/campaign-setup
// and createCampaignFromTemplate: a new campaign with the template's
// set-up, the request's settings replacing the template's, made by the
// campaign create use case; each validation rule of the template is
// copied as a new rule assigned to the campaign.
func SetUpCampaign(ctx context.Context, id string, in CampaignSetupInput) (*CampaignSetup, error) {
	if strings.TrimSpace(in.Name) == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	_, snap, err := load(ctx, id)
	if err != nil {
		return nil, err
	}
	create := campaignOf(snap)
	in.apply(create)
	made, ruleIDs, err := copyRules(ctx, snap.Rules)
	if err != nil {
		return nil, err
	}
	create.ValidationRules = ruleIDs
	cmp, err := campaign.CreateCampaign(ctx, *create)
	if err != nil {
		return nil, err
	}
	return &CampaignSetup{CreatedResources: made, Campaign: cmp}, nil
}

// SetUpTier serves REST POST /v1/templates/campaigns/{id}/tier-setup and
// addPromotionTierFromTemplate: a new tier of a PROMOTION campaign with
// the template's discount and settings (a DISCOUNT_COUPONS template; a
// gift template has no tier form), made by the promotion tier use case.
func SetUpTier(ctx context.Context, id string, in TierSetupInput) (*TierSetup, error) {
	if strings.TrimSpace(in.CampaignID) == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'campaign_id'")
	}
	if strings.TrimSpace(in.Name) == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	t, snap, err := load(ctx, id)
	if err != nil {
		return nil, err
	}
	tier, err := tierOf(t, snap)
	if err != nil {
		return nil, err
	}
	in.apply(tier)
	made, ruleIDs, err := copyRules(ctx, snap.Rules)
	if err != nil {
		return nil, err
	}
	tier.ValidationRules = ruleIDs
	created, err := promotion.CreateTier(ctx, in.CampaignID, *tier)
	if err != nil {
		return nil, err
	}
	return &TierSetup{CreatedResources: made, PromotionTier: created}, nil
}

// load reads a template and its snapshot.
func load(ctx context.Context, id string) (*ent.CampaignTemplate, *setup, error) {
	t, err := Template(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	var snap setup
	if err := json.Unmarshal(t.Setup, &snap); err != nil {
		return nil, nil, fmt.Errorf("decoding campaign template %s: %w", t.ID, err)
	}
	return t, &snap, nil
}

// campaignOf is the campaign create a template replays: its stored
// campaign, or for a tier's template a discount campaign giving the
// tier's discount.
func campaignOf(snap *setup) *campaign.CreateCampaignInput {
	if snap.Campaign != nil {
		c := *snap.Campaign
		return &c
	}
	kind := entcampaign.CampaignTypeDISCOUNT_COUPONS
	c := &campaign.CreateCampaignInput{CampaignType: &kind,
		Voucher: &jsonfield.VoucherProfile{Type: jsonfield.VoucherTypeDiscount}}
	if tier := snap.Tier; tier != nil {
		if tier.Action != nil {
			c.Voucher.Discount = tier.Action.Discount
		}
		c.Metadata, c.StartDate, c.ExpirationDate = tier.Metadata, tier.StartDate, tier.ExpirationDate
		c.ValidityTimeframe, c.ValidityDayOfWeek, c.ValidityHours = tier.ValidityTimeframe, tier.ValidityDayOfWeek, tier.ValidityHours
	}
	return c
}

// tierOf is the tier a template makes: its stored tier, or a discount
// campaign's discount and validity.
func tierOf(t *ent.CampaignTemplate, snap *setup) (*campaign.PromotionTierInput, error) {
	if snap.Tier != nil {
		tier := *snap.Tier
		return &tier, nil
	}
	c := snap.Campaign
	if c == nil || c.Voucher == nil || c.Voucher.Discount == nil {
		return nil, apperr.InvalidPayload("Campaign template %s is a %s template without a discount: only a discount template makes a promotion tier", t.ID, t.CampaignType)
	}
	return &campaign.PromotionTierInput{
		Action: &campaign.PromotionTierAction{Discount: c.Voucher.Discount}, Metadata: c.Metadata,
		StartDate: c.StartDate, ExpirationDate: c.ExpirationDate, ValidityTimeframe: c.ValidityTimeframe,
		ValidityDayOfWeek: c.ValidityDayOfWeek, ValidityHours: c.ValidityHours,
	}, nil
}

// copyRules makes a new validation rule of each definition.
func copyRules(ctx context.Context, defs []validationrules.ValidationRuleInput) ([]*CreatedResource, []string, error) {
	made := []*CreatedResource{}
	var ids []string
	for _, def := range defs {
		r, err := validationrules.CreateValidationRule(ctx, def)
		if err != nil {
			return nil, nil, err
		}
		made = append(made, &CreatedResource{ID: r.ID, Object: "validation_rules"})
		ids = append(ids, r.ID)
	}
	return made, ids, nil
}
