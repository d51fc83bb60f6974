// Package template owns campaign templates (REST /v1/templates/campaigns…,
// GraphQL campaignTemplate*): a template is a stored snapshot of a
// discount or gift campaign's set-up, or of a promotion tier's, from which
// new campaigns (campaign-setup) and promotion tiers (tier-setup) are made
// through the campaign and promotion use cases. docs/templates.md.
package template

import (
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
)

// Sources of a template's snapshot.
const (
	sourceCampaign = "campaign"
	sourceTier     = "promotion_tier"
)

// setup is a template's stored snapshot (the setup column): the campaign
// create it replays (without name, category and code count, as the real
// service leaves them out), or the tier, and the definitions of the
// validation rules that were assigned (copied as new rules on each use).
type setup struct {
	Source   string                                `json:"source"`
	Campaign *campaign.CreateCampaignInput         `json:"campaign,omitempty"`
	Tier     *campaign.PromotionTierInput          `json:"tier,omitempty"`
	Rules    []validationrules.ValidationRuleInput `json:"rules,omitempty"`
}

// CreateTemplateInput is the body of REST POST /v1/templates/campaigns and
// createCampaignTemplate: exactly one of campaign_id and promotion_tier_id.
type CreateTemplateInput struct {
	Name            string  `json:"name"`
	Description     *string `json:"description"`
	CampaignID      *string `json:"campaign_id"`
	PromotionTierID *string `json:"promotion_tier_id"`
}

// UpdateTemplateInput is the body of REST PUT /v1/templates/campaigns/{id}:
// a field left out stays, a null description clears it.
type UpdateTemplateInput struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	// ClearDescription removes the description (GraphQL's
	// clearDescription: true; a null description does the same).
	ClearDescription bool `json:"-"`
	// Nulls are the members an update sent as an explicit null:
	// description clears it; name is required.
	shape.Nulls
}

// ListInput is the query of REST GET /v1/templates/campaigns.
type ListInput struct {
	// Limit is 1 to 100 (default 10).
	Limit *int `json:"limit"`
	// StartingAfterID continues after this template (in the list's order).
	StartingAfterID *string `json:"starting_after_id"`
	// Order is id (default, oldest first) or -id.
	Order *string `json:"order"`
	// IncludeTotal adds the number of all matches.
	IncludeTotal *bool `json:"include_total"`
	// Filters is the filters[...] object over id, name and campaign_type.
	Filters map[string]any `json:"filters"`
}

// List is a page of templates.
type List struct {
	Data []*ent.CampaignTemplate `json:"data"`
	// Total is set when the query asked for it.
	Total   *int `json:"total"`
	HasMore bool `json:"has_more"`
}

// CampaignSetupInput is the body of REST POST …/{id}/campaign-setup: the
// new campaign's name and the settings that replace the template's.
type CampaignSetupInput struct {
	Name                            string                       `json:"name"`
	Description                     *string                      `json:"description"`
	Type                            *string                      `json:"type"`
	JoinOnce                        *bool                        `json:"join_once"`
	AutoJoin                        *bool                        `json:"auto_join"`
	UseVoucherMetadataSchema        *bool                        `json:"use_voucher_metadata_schema"`
	VouchersCount                   *int                         `json:"vouchers_count"`
	StartDate                       *time.Time                   `json:"start_date"`
	ExpirationDate                  *time.Time                   `json:"expiration_date"`
	ValidityTimeframe               *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int                        `json:"validity_day_of_week"`
	ValidityHours                   *jsonfield.ValidityHours     `json:"validity_hours"`
	ActivityDurationAfterPublishing *string                      `json:"activity_duration_after_publishing"`
	CategoryID                      *string                      `json:"category_id"`
	Category                        *string                      `json:"category"`
	Metadata                        map[string]any               `json:"metadata"`
	Voucher                         *SetupVoucherInput           `json:"voucher"`
}

// SetupVoucherInput replaces the template's code pattern and redemption
// limit.
type SetupVoucherInput struct {
	CodeConfig *jsonfield.CodeConfig `json:"code_config"`
	Redemption *jsonfield.Redemption `json:"redemption"`
}

// TierSetupInput is the body of REST POST …/{id}/tier-setup: the PROMOTION
// campaign the tier joins, its name and the settings that replace the
// template's (the action comes from the template).
type TierSetupInput struct {
	CampaignID        string                       `json:"campaign_id"`
	Name              string                       `json:"name"`
	Banner            *string                      `json:"banner"`
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
}

// CreatedResource is a resource a set-up made besides the campaign or
// tier (a copy of a template's validation rule).
type CreatedResource struct {
	ID     string `json:"id"`
	Object string `json:"object"`
}

// CampaignSetup is the answer of campaign-setup.
type CampaignSetup struct {
	CreatedResources []*CreatedResource `json:"created_resources"`
	Campaign         *ent.Campaign      `json:"campaign"`
}

// TierSetup is the answer of tier-setup.
type TierSetup struct {
	CreatedResources []*CreatedResource `json:"created_resources"`
	PromotionTier    *ent.PromotionTier `json:"promotion_tier"`
}
