package promotion

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/promotionstack"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// MaxStackTiers is how many tiers a stack may list (the real service's limit).
const MaxStackTiers = 30

// StackInput is the body of REST POST /v1/promotions/{campaignId}/stacks
// and PUT …/stacks/{stackId}, and the GraphQL PromotionStackInput. A
// field left out stays as it is.
type StackInput struct {
	Name       *string     `json:"name"`
	Tiers      *StackTiers `json:"tiers"`
	CategoryID *string     `json:"category_id"`
	// Nulls are the members an update sent as an explicit null:
	// category_id clears the category; name and tiers are required.
	shape.Nulls
}

// StackTiers are a stack's tiers in application order.
type StackTiers struct {
	IDs           []string `json:"ids"`
	HierarchyMode *string  `json:"hierarchy_mode"`
}

// validate checks a stack input; create demands a name and tiers.
func (in *StackInput) validate(create bool) error {
	if in.Name != nil && (strings.TrimSpace(*in.Name) == "" || utf8.RuneCountInString(*in.Name) > 1000) {
		return apperr.InvalidPayload("Property .name must be a non-empty string of at most 1000 characters")
	}
	if create && in.Name == nil {
		return apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if create && in.Tiers == nil {
		return apperr.InvalidPayload("Payload must have required property 'tiers'")
	}
	if t := in.Tiers; t != nil {
		if len(t.IDs) < 1 || len(t.IDs) > MaxStackTiers {
			return apperr.InvalidPayload("Property .tiers.ids must have 1 to %d items", MaxStackTiers)
		}
		for i, id := range t.IDs {
			if strings.TrimSpace(id) == "" || len(id) > 100 {
				return apperr.InvalidPayload("Property .tiers.ids[%d] must be a promotion tier id", i)
			}
			if slices.Contains(t.IDs[:i], id) {
				return apperr.InvalidPayload("Property .tiers.ids lists %s twice", id)
			}
		}
		if t.HierarchyMode != nil && *t.HierarchyMode != "MANUAL" {
			return apperr.InvalidPayload("Property .tiers.hierarchy_mode must be equal to MANUAL")
		}
	}
	return nil
}

// CreateStack serves REST POST /v1/promotions/{campaignId}/stacks and
// createPromotionStack: a named, ordered group of the campaign's tiers
// (404 promotion_tier for a tier the campaign does not have).
func CreateStack(ctx context.Context, campaignRef string, in StackInput) (*ent.PromotionStack, error) {
	if err := in.validate(true); err != nil {
		return nil, err
	}
	cmp, err := promotionCampaign(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	if err := checkStackTiers(ctx, cmp.ID, in.Tiers.IDs); err != nil {
		return nil, err
	}
	category, err := stackCategory(ctx, in.CategoryID)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	s, err := c.PromotionStack.Create().SetCampaignID(cmp.ID).SetName(*in.Name).SetTierIds(in.Tiers.IDs).
		SetNillableCategoryID(category).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating promotion stack: %w", err)
	}
	return s, emitStack(ctx, EventStackCreated, s)
}

// Stack serves REST GET /v1/promotions/{campaignId}/stacks/{stackId} and
// promotionStack: the campaign is its id or name (404 campaign), the
// stack one of its stacks (404 promotion_stack).
func Stack(ctx context.Context, campaignRef, id string) (*ent.PromotionStack, error) {
	cmp, err := campaignpkg.ByIDOrName(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	s, err := c.PromotionStack.Query().Where(promotionstack.ID(id), promotionstack.CampaignID(cmp.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("promotion_stack", id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading promotion stack: %w", err)
	}
	return s, nil
}

// StackByID reads a stack by its id alone (the redeemable of a
// validation); nil when there is none.
func StackByID(ctx context.Context, id string) (*ent.PromotionStack, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	s, err := c.PromotionStack.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return s, store.WrapErr("reading promotion stack", err)
}

// UpdateStack serves REST PUT /v1/promotions/{campaignId}/stacks/{stackId}
// and updatePromotionStack: the sent fields change.
func UpdateStack(ctx context.Context, campaignRef, id string, in StackInput) (*ent.PromotionStack, error) {
	if err := in.RefuseNull("name", "tiers", "tiers.ids", "tiers.hierarchy_mode"); err != nil {
		return nil, err
	}
	if err := in.validate(false); err != nil {
		return nil, err
	}
	s, err := Stack(ctx, campaignRef, id)
	if err != nil {
		return nil, err
	}
	upd := s.Update().SetUpdatedAt(clock.Now())
	if in.Name != nil {
		upd.SetName(*in.Name)
	}
	if in.Tiers != nil {
		if err := checkStackTiers(ctx, s.CampaignID, in.Tiers.IDs); err != nil {
			return nil, err
		}
		upd.SetTierIds(in.Tiers.IDs)
	}
	if in.CategoryID != nil {
		category, err := stackCategory(ctx, in.CategoryID)
		if err != nil {
			return nil, err
		}
		if category == nil {
			upd.ClearCategoryID()
		} else {
			upd.SetCategoryID(*category)
		}
	} else if in.IsNull("category_id") {
		upd.ClearCategoryID()
	}
	saved, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating promotion stack: %w", err)
	}
	return saved, emitStack(ctx, EventStackUpdated, saved)
}

// DeleteStack serves REST DELETE /v1/promotions/{campaignId}/stacks/{stackId}
// and deletePromotionStack; it returns the stack's id.
func DeleteStack(ctx context.Context, campaignRef, id string) (string, error) {
	s, err := Stack(ctx, campaignRef, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if err := c.PromotionStack.DeleteOne(s).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting promotion stack: %w", err)
	}
	return s.ID, nil
}

// checkStackTiers demands that every id names a tier of the campaign.
func checkStackTiers(ctx context.Context, campaignID string, ids []string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	found, err := c.PromotionTier.Query().Where(promotiontier.CampaignID(campaignID), promotiontier.IDIn(ids...)).
		IDs(ctx)
	if err != nil {
		return fmt.Errorf("reading the stack's tiers: %w", err)
	}
	for _, id := range ids {
		if !slices.Contains(found, id) {
			return apperr.NotFound("promotion_tier", id)
		}
	}
	return nil
}

// stackCategory is the category a stack names by id (404 when unknown;
// "" clears it).
func stackCategory(ctx context.Context, id *string) (*string, error) {
	if id == nil || *id == "" {
		return nil, nil
	}
	cat, err := campaignpkg.CategoryByID(ctx, *id)
	if err != nil {
		return nil, err
	}
	return &cat.ID, nil
}

// forgetTierInStacks takes a deleted tier out of its campaign's stacks;
// a stack left without tiers is deleted.
func forgetTierInStacks(ctx context.Context, c *ent.Client, t *ent.PromotionTier) error {
	stacks, err := c.PromotionStack.Query().Where(promotionstack.CampaignID(t.CampaignID)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the campaign's stacks: %w", err)
	}
	for _, s := range stacks {
		if !slices.Contains(s.TierIds, t.ID) {
			continue
		}
		left := slices.DeleteFunc(slices.Clone(s.TierIds), func(id string) bool { return id == t.ID })
		if len(left) == 0 {
			err = c.PromotionStack.DeleteOne(s).Exec(ctx)
		} else {
			err = s.Update().SetTierIds(left).SetUpdatedAt(clock.Now()).Exec(ctx)
		}
		if err != nil {
			return fmt.Errorf("taking the tier out of stack %s: %w", s.ID, err)
		}
	}
	return nil
}
