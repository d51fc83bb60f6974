package campaign

import (
	"time"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// CreateCampaignInput is the input of the createCampaign mutation and the
// body of REST POST /v1/campaigns: gqlgen binds the GraphQL input to it by
// field name, REST decodes the real service's snake_case JSON into it.
type CreateCampaignInput struct {
	Name                            string                       `json:"name"`
	Description                     *string                      `json:"description"`
	CampaignType                    *campaign.CampaignType       `json:"campaign_type"`
	Type                            *campaign.Type               `json:"type"`
	AutoJoin                        *bool                        `json:"auto_join"`
	JoinOnce                        *bool                        `json:"join_once"`
	UseVoucherMetadataSchema        *bool                        `json:"use_voucher_metadata_schema"`
	Voucher                         *jsonfield.VoucherProfile    `json:"voucher"`
	ValidityTimeframe               *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int                        `json:"validity_day_of_week"`
	ValidityHours                   *jsonfield.ValidityHours     `json:"validity_hours"`
	ActivityDurationAfterPublishing *string                      `json:"activity_duration_after_publishing"`
	StartDate                       *time.Time                   `json:"start_date"`
	ExpirationDate                  *time.Time                   `json:"expiration_date"`
	Category                        *string                      `json:"category"`
	CategoryID                      *string                      `json:"category_id"`
	Metadata                        map[string]any               `json:"metadata"`
	Protected                       *bool                        `json:"protected"`
	VouchersCount                   *int                         `json:"vouchers_count"`
	ReferralProgram                 map[string]any               `json:"referral_program"`
	// ValidationRules is assigned to the new campaign (at most one val_… ID).
	ValidationRules []string `json:"validation_rules"`
	// Promotion carries a PROMOTION campaign's tiers (promotion_input.go).
	Promotion *PromotionInput `json:"promotion"`
}
