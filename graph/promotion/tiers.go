// Package promotion owns the tiers and stacks of PROMOTION campaigns
// (REST /v1/promotions/…; GraphQL promotionTier*, promotionStack*):
// creates, reads, updates, deletes, enabling and disabling, lists, the
// tiers a campaign create carries, and the validation rules assigned to
// a tier. Validating and redeeming tiers is graph/redemption's.
package promotion

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TierInput is a tier's create or update body (its shape is the
// campaigns': a campaign create carries tiers).
type TierInput = campaignpkg.PromotionTierInput

// CreateTier serves REST POST /v1/promotions/{campaignId}/tiers and
// createPromotionTier: a tier of a PROMOTION campaign (id or name; 404
// campaign when unknown, 400 for another campaign type). Without a
// hierarchy it comes after the campaign's last tier.
func CreateTier(ctx context.Context, campaignRef string, in TierInput) (*ent.PromotionTier, error) {
	if err := in.Validate("", true); err != nil {
		return nil, err
	}
	cmp, err := promotionCampaign(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	return createTier(ctx, cmp, &in, nil)
}

// CreateCampaignTiers makes the tiers a campaign create carries, in its
// transaction: hierarchy 1..n in array order unless a tier names one. It
// is campaign.CreatePromotionTiers (set at wiring). The inputs were
// checked by the campaign create.
func CreateCampaignTiers(ctx context.Context, cmp *ent.Campaign, tiers []*TierInput) error {
	for i, t := range tiers {
		h := i + 1
		if _, err := createTier(ctx, cmp, t, &h); err != nil {
			return err
		}
	}
	return nil
}

// createTier stores a checked tier input under cmp; hierarchy is the
// default when the input names none (nil: after the last tier).
func createTier(ctx context.Context, cmp *ent.Campaign, in *TierInput, hierarchy *int) (*ent.PromotionTier, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if in.Hierarchy != nil {
		hierarchy = in.Hierarchy
	}
	if hierarchy == nil {
		next := 1
		last, err := c.PromotionTier.Query().Where(promotiontier.CampaignID(cmp.ID)).
			Order(ent.Desc(promotiontier.FieldHierarchy)).First(ctx)
		switch {
		case err == nil:
			next = last.Hierarchy + 1
		case !ent.IsNotFound(err):
			return nil, fmt.Errorf("reading the campaign's last tier: %w", err)
		}
		hierarchy = &next
	}
	create := c.PromotionTier.Create().SetCampaignID(cmp.ID).SetName(*in.Name).SetNillableBanner(in.Banner).
		SetDiscount(in.Action.Discount).SetHierarchy(*hierarchy).SetNillableActive(in.Active).
		SetNillableStartDate(utc(in.StartDate)).SetNillableExpirationDate(utc(in.ExpirationDate))
	if in.Metadata != nil {
		create.SetMetadata(in.Metadata)
	}
	if in.ValidityTimeframe != nil {
		create.SetValidityTimeframe(in.ValidityTimeframe)
	}
	if in.ValidityDayOfWeek != nil {
		create.SetValidityDayOfWeek(in.ValidityDayOfWeek)
	}
	if in.ValidityHours != nil {
		create.SetValidityHours(in.ValidityHours)
	}
	cat, _, err := campaignpkg.TierCategory(ctx, in.Category, in.CategoryID)
	if err != nil {
		return nil, err
	}
	if cat != nil {
		create.SetCategoryID(cat.ID)
	}
	t, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating promotion tier: %w", err)
	}
	if _, err := campaignpkg.AssignRules(ctx, validationruleassignment.RelatedObjectTypePromotionTier, t.ID, in.ValidationRules); err != nil {
		return nil, err
	}
	t.Edges.Campaign = cmp
	return t, emitTier(ctx, EventTierCreated, t)
}

// Tier serves REST GET /v1/promotions/tiers/{id} and promotionTier: the
// tier with its campaign (404 promotion_tier when unknown).
func Tier(ctx context.Context, id string) (*ent.PromotionTier, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.PromotionTier.Query().Where(promotiontier.ID(id)).WithCampaign().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("promotion_tier", id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading promotion tier: %w", err)
	}
	return t, nil
}

// UpdateTier serves REST PUT /v1/promotions/tiers/{id} and
// updatePromotionTier: the sent fields change (active is changed by
// enable and disable); validation_rules or validation_rule_assignments,
// when sent, become the tier's rule assignments (tier_rules.go).
func UpdateTier(ctx context.Context, id string, in TierInput) (*ent.PromotionTier, error) {
	in.Active = nil
	if err := in.Validate("", false); err != nil {
		return nil, err
	}
	if err := in.RefuseNull("name", "action", "hierarchy"); err != nil {
		return nil, err
	}
	rulesUpdate, err := rulesUpdateOf(&in)
	if err != nil {
		return nil, err
	}
	t, err := Tier(ctx, id)
	if err != nil {
		return nil, err
	}
	start, expiration := tierDates(t, &in)
	if start != nil && expiration != nil && !expiration.After(*start) {
		return nil, apperr.InvalidPayload("Property .expiration_date must be later than .start_date")
	}
	upd := t.Update().SetUpdatedAt(clock.Now())
	if in.Name != nil {
		upd.SetName(*in.Name)
	}
	upd.SetNillableBanner(in.Banner).SetNillableHierarchy(in.Hierarchy).
		SetNillableStartDate(utc(in.StartDate)).SetNillableExpirationDate(utc(in.ExpirationDate))
	if in.Action != nil {
		upd.SetDiscount(in.Action.Discount)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if in.ValidityTimeframe != nil {
		upd.SetValidityTimeframe(in.ValidityTimeframe)
	}
	if in.ValidityDayOfWeek != nil {
		upd.SetValidityDayOfWeek(in.ValidityDayOfWeek)
	}
	if in.ValidityHours != nil {
		upd.SetValidityHours(in.ValidityHours)
	}
	cat, clear, err := campaignpkg.TierCategory(ctx, in.Category, in.CategoryID)
	if err != nil {
		return nil, err
	}
	switch {
	case cat != nil:
		upd.SetCategoryID(cat.ID)
	case clear:
		upd.ClearCategoryID()
	}
	clearTierFields(upd, &in)
	if err := rulesUpdate.apply(ctx, t.ID); err != nil {
		return nil, err
	}
	saved, err := saveTier(ctx, t, upd)
	if err != nil {
		return nil, err
	}
	return saved, emitTier(ctx, EventTierUpdated, saved)
}

// SetTierActive serves REST POST /v1/promotions/tiers/{id}/enable and
// /disable (enablePromotionTier, disablePromotionTier).
func SetTierActive(ctx context.Context, id string, active bool) (*ent.PromotionTier, error) {
	t, err := Tier(ctx, id)
	if err != nil {
		return nil, err
	}
	saved, err := saveTier(ctx, t, t.Update().SetActive(active).SetUpdatedAt(clock.Now()))
	if err != nil {
		return nil, err
	}
	event := EventTierDisabled
	if active {
		event = EventTierEnabled
	}
	return saved, emitTier(ctx, event, saved)
}

// saveTier saves an update and keeps the loaded campaign.
func saveTier(ctx context.Context, t *ent.PromotionTier, upd *ent.PromotionTierUpdateOne) (*ent.PromotionTier, error) {
	saved, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating promotion tier: %w", err)
	}
	saved.Edges.Campaign = t.Edges.Campaign
	return saved, nil
}

// DeleteTier serves REST DELETE /v1/promotions/tiers/{id} and
// deletePromotionTier: the tier and its rule assignments go, and it
// leaves the stacks that listed it (a stack left empty goes too). Its
// redemptions stay in the history. It returns the tier's id.
func DeleteTier(ctx context.Context, id string) (string, error) {
	t, err := Tier(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.ValidationRuleAssignment.Delete().Where(validationruleassignment.RelatedObjectID(t.ID)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting the tier's rule assignments: %w", err)
	}
	if err := forgetTierInStacks(ctx, c, t); err != nil {
		return "", err
	}
	if err := c.PromotionTier.DeleteOne(t).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting promotion tier: %w", err)
	}
	return t.ID, emitTier(ctx, EventTierDeleted, t)
}

// promotionCampaign is the PROMOTION campaign a path names (id or name).
func promotionCampaign(ctx context.Context, ref string) (*ent.Campaign, error) {
	cmp, err := campaignpkg.ByIDOrName(ctx, ref)
	if err != nil {
		return nil, err
	}
	if cmp.CampaignType != campaign.CampaignTypePROMOTION {
		return nil, apperr.InvalidPayload("Campaign %s is a %s campaign; promotion tiers and stacks belong to PROMOTION campaigns", cmp.ID, cmp.CampaignType)
	}
	return cmp, nil
}
