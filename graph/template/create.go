package template

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
)

// Limits of a template's text.
const (
	maxName        = 1000
	maxDescription = 5000
)

// CreateTemplate serves REST POST /v1/templates/campaigns and
// createCampaignTemplate: a snapshot of a DISCOUNT_COUPONS or GIFT_VOUCHERS
// campaign, or of a promotion tier (then a DISCOUNT_COUPONS template).
func CreateTemplate(ctx context.Context, in CreateTemplateInput) (*ent.CampaignTemplate, error) {
	if err := checkText(&in.Name, in.Description); err != nil {
		return nil, err
	}
	hasCampaign := in.CampaignID != nil && *in.CampaignID != ""
	hasTier := in.PromotionTierID != nil && *in.PromotionTierID != ""
	if hasCampaign == hasTier {
		return nil, apperr.InvalidPayload("Payload must have exactly one of the properties 'campaign_id' and 'promotion_tier_id'")
	}
	var (
		snap *setup
		kind string
		err  error
	)
	if hasCampaign {
		snap, kind, err = campaignSnapshot(ctx, *in.CampaignID)
	} else {
		snap, kind, err = tierSnapshot(ctx, *in.PromotionTierID)
	}
	if err != nil {
		return nil, err
	}
	return insert(ctx, in.Name, in.Description, kind, snap)
}

// checkText checks a template's name (required when name is non-nil) and
// description.
func checkText(name, description *string) error {
	if name != nil && (strings.TrimSpace(*name) == "" || utf8.RuneCountInString(*name) > maxName) {
		return apperr.InvalidPayload("Property .name must be a non-empty string of at most %d characters", maxName)
	}
	if description != nil && utf8.RuneCountInString(*description) > maxDescription {
		return apperr.InvalidPayload("Property .description must be at most %d characters", maxDescription)
	}
	return nil
}

// insert stores a template in the context's project; a taken name is 409.
func insert(ctx context.Context, name string, description *string, kind string, snap *setup) (*ent.CampaignTemplate, error) {
	raw, err := json.Marshal(snap)
	if err != nil {
		return nil, fmt.Errorf("encoding template set-up: %w", err)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.CampaignTemplate.Create().SetName(name).SetNillableDescription(description).
		SetCampaignType(kind).SetSetup(raw).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateName(name)
	}
	if err != nil {
		return nil, fmt.Errorf("creating campaign template: %w", err)
	}
	return t, nil
}

func duplicateName(name string) *apperr.Error {
	return apperr.Duplicate("campaign_template", fmt.Sprintf("A campaign template named %q already exists", name))
}

// campaignSnapshot is the set-up of a discount or gift campaign.
func campaignSnapshot(ctx context.Context, ref string) (*setup, string, error) {
	cmp, err := campaign.ByIDOrName(ctx, ref)
	if err != nil {
		return nil, "", err
	}
	if cmp.CampaignType != entcampaign.CampaignTypeDISCOUNT_COUPONS && cmp.CampaignType != entcampaign.CampaignTypeGIFT_VOUCHERS {
		return nil, "", apperr.InvalidPayload("Property .campaign_id must name a DISCOUNT_COUPONS or GIFT_VOUCHERS campaign; a %s campaign cannot be a template (a promotion tier can, through promotion_tier_id)", cmp.CampaignType)
	}
	kind, typ := cmp.CampaignType, cmp.Type
	in := &campaign.CreateCampaignInput{
		Description: cmp.Description, CampaignType: &kind, Type: &typ,
		AutoJoin: &cmp.AutoJoin, JoinOnce: &cmp.JoinOnce, UseVoucherMetadataSchema: &cmp.UseVoucherMetadataSchema,
		Voucher: cmp.Voucher, ValidityTimeframe: cmp.ValidityTimeframe, ValidityDayOfWeek: cmp.ValidityDayOfWeek,
		ValidityHours: cmp.ValidityHours, ActivityDurationAfterPublishing: cmp.ActivityDurationAfterPublishing,
		StartDate: cmp.StartDate, ExpirationDate: cmp.ExpirationDate, Metadata: cmp.Metadata, Protected: &cmp.Protected,
	}
	rules, err := assignedRules(ctx, validationruleassignment.RelatedObjectTypeCampaign, cmp.ID)
	if err != nil {
		return nil, "", err
	}
	return &setup{Source: sourceCampaign, Campaign: in, Rules: rules}, kind.String(), nil
}

// tierSnapshot is the set-up of a promotion tier.
func tierSnapshot(ctx context.Context, id string) (*setup, string, error) {
	t, err := promotion.Tier(ctx, id)
	if err != nil {
		return nil, "", err
	}
	in := &campaign.PromotionTierInput{
		Banner: t.Banner, Action: &campaign.PromotionTierAction{Discount: t.Discount}, Metadata: t.Metadata,
		StartDate: t.StartDate, ExpirationDate: t.ExpirationDate, ValidityTimeframe: t.ValidityTimeframe,
		ValidityDayOfWeek: t.ValidityDayOfWeek, ValidityHours: t.ValidityHours,
	}
	rules, err := assignedRules(ctx, validationruleassignment.RelatedObjectTypePromotionTier, t.ID)
	if err != nil {
		return nil, "", err
	}
	return &setup{Source: sourceTier, Tier: in, Rules: rules}, entcampaign.CampaignTypeDISCOUNT_COUPONS.String(), nil
}

// assignedRules are the definitions of the rules assigned to an object.
func assignedRules(ctx context.Context, kind validationruleassignment.RelatedObjectType, id string) ([]validationrules.ValidationRuleInput, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := c.ValidationRuleAssignment.Query().
		Where(validationruleassignment.RelatedObjectTypeEQ(kind), validationruleassignment.RelatedObjectID(id)).
		Order(ent.Asc(validationruleassignment.FieldCreatedAt), ent.Asc(validationruleassignment.FieldID)).
		Select(validationruleassignment.FieldRuleID).Strings(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing validation rule assignments: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	found, err := c.ValidationRule.Query().Where(validationrule.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading validation rules: %w", err)
	}
	byID := make(map[string]*ent.ValidationRule, len(found))
	for _, r := range found {
		byID[r.ID] = r
	}
	out := make([]validationrules.ValidationRuleInput, 0, len(ids))
	for _, id := range ids {
		r, ok := byID[id]
		if !ok {
			continue
		}
		name, typ, ctxType := r.Name, r.Type, r.ContextType
		out = append(out, validationrules.ValidationRuleInput{Name: &name, Type: &typ, ContextType: &ctxType,
			Rules: r.Rules, Error: r.Error, ApplicableTo: r.ApplicableTo})
	}
	return out, nil
}
