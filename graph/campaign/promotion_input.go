package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// Limits of a promotion tier's text.
const (
	maxTierName   = 1000
	maxTierBanner = 5000
	// MaxTierRules is how many validation rules a tier create may name.
	MaxTierRules = 10
	// MaxInlineTiers is how many tiers a campaign create may carry.
	MaxInlineTiers = 100
)

// PromotionTierInput is the body of REST POST /v1/promotions/{campaignId}/tiers
// and PUT /v1/promotions/tiers/{id}, one entry of a campaign create's
// promotion.tiers, and the GraphQL PromotionTierInput. The campaigns own
// its shape (a PROMOTION campaign is created with its tiers);
// graph/promotion owns the use cases. A field left out stays as it is.
type PromotionTierInput struct {
	Name              *string                      `json:"name"`
	Banner            *string                      `json:"banner"`
	Action            *PromotionTierAction         `json:"action"`
	Metadata          map[string]any               `json:"metadata"`
	Hierarchy         *int                         `json:"hierarchy"`
	Active            *bool                        `json:"active"`
	StartDate         *time.Time                   `json:"start_date"`
	ExpirationDate    *time.Time                   `json:"expiration_date"`
	ValidityTimeframe *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek []int                        `json:"validity_day_of_week"`
	ValidityHours     *jsonfield.ValidityHours     `json:"validity_hours"`
	Category          *string                      `json:"category"`
	CategoryID        *string                      `json:"category_id"`
	// ValidationRules are val_… ids assigned to the new tier; in an
	// update, the tier's rules become exactly these ([] removes them all).
	ValidationRules []string `json:"validation_rules"`
	// ValidationRuleAssignments is the update's other form of the same,
	// as the tier object lists them (REST only; see TierAssignments).
	ValidationRuleAssignments json.RawMessage `json:"validation_rule_assignments"`
	// Nulls are the members an update sent as an explicit null: each
	// clears its field (banner, validity rules, metadata, category);
	// name, action and hierarchy cannot be null.
	shape.Nulls
}

// PromotionTierAction is a tier's action: the discount it gives.
type PromotionTierAction struct {
	Discount *jsonfield.Discount `json:"discount"`
}

// PromotionInput is a campaign create's promotion: the tiers made with it,
// hierarchy 1..n in array order unless they name one.
type PromotionInput struct {
	Tiers []*PromotionTierInput `json:"tiers"`
}

// Validate checks a tier input; create demands a name and a discount.
// prop names the tier in errors ("" for a body, ".promotion.tiers[2]").
func (in *PromotionTierInput) Validate(prop string, create bool) error {
	if in.Name != nil && (strings.TrimSpace(*in.Name) == "" || utf8.RuneCountInString(*in.Name) > maxTierName) {
		return apperr.InvalidPayload("Property %s.name must be a non-empty string of at most %d characters", prop, maxTierName)
	}
	if create && in.Name == nil {
		return apperr.InvalidPayload("Property %s.name is required", prop)
	}
	if in.Banner != nil && utf8.RuneCountInString(*in.Banner) > maxTierBanner {
		return apperr.InvalidPayload("Property %s.banner must be at most %d characters", prop, maxTierBanner)
	}
	if in.Action != nil && in.Action.Discount != nil {
		if err := validateDiscountAt(prop+".action.discount", in.Action.Discount); err != nil {
			return err
		}
	} else if create || in.Action != nil {
		return apperr.InvalidPayload("Property %s.action.discount is required", prop)
	}
	if in.Hierarchy != nil && (*in.Hierarchy < 1 || *in.Hierarchy > 1_000_000) {
		return apperr.InvalidPayload("Property %s.hierarchy must be an integer between 1 and 1000000", prop)
	}
	if len(in.ValidationRules) > MaxTierRules {
		return apperr.InvalidPayload("Property %s.validation_rules must name at most %d validation rules", prop, MaxTierRules)
	}
	return validity{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate, Timeframe: in.ValidityTimeframe,
		DaysOfWeek: in.ValidityDayOfWeek, Hours: in.ValidityHours}.validate()
}

// TierCategory is the category a tier write names (category_id, else a
// category name found or created; an empty one clears it), as campaigns
// name theirs.
func TierCategory(ctx context.Context, name, id *string) (cat *ent.Category, clear bool, err error) {
	return campaignCategory(ctx, name, id)
}

// CreatePromotionTiers makes a new PROMOTION campaign's inline tiers in
// the campaign create's transaction; graph/promotion sets it at wiring
// (graph/wiring.go), as upward calls are registered, not imported.
var CreatePromotionTiers = func(ctx context.Context, cmp *ent.Campaign, tiers []*PromotionTierInput) error {
	if len(tiers) > 0 {
		return apperr.InvalidPayload("Property .promotion.tiers is not supported by this server")
	}
	return nil
}

// checkPromotion refuses tiers on a campaign that is not a PROMOTION and
// checks each tier before anything is written.
func checkPromotion(kind campaign.CampaignType, p *PromotionInput) error {
	if p == nil || len(p.Tiers) == 0 {
		return nil
	}
	if kind != campaign.CampaignTypePROMOTION {
		return apperr.InvalidPayload("Property .promotion is only allowed for PROMOTION campaigns")
	}
	if len(p.Tiers) > MaxInlineTiers {
		return apperr.InvalidPayload("Property .promotion.tiers must have at most %d items", MaxInlineTiers)
	}
	for i, t := range p.Tiers {
		if t == nil {
			return apperr.InvalidPayload("Property .promotion.tiers[%d] must be an object", i)
		}
		if err := t.Validate(fmt.Sprintf(".promotion.tiers[%d]", i), true); err != nil {
			return err
		}
	}
	return nil
}
