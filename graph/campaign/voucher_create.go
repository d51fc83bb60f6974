package campaign

import (
	"context"
	"net/http"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// CreateVoucherInput is a standalone voucher — one that belongs to no
// campaign (REST POST /v1/vouchers and POST /v1/vouchers/{code}, GraphQL
// createVoucher). Without a code, one is generated from CodeConfig.
type CreateVoucherInput struct {
	Code              *string                      `json:"code"`
	Type              *jsonfield.VoucherType       `json:"type"`
	Discount          *jsonfield.Discount          `json:"discount"`
	Gift              *jsonfield.Gift              `json:"gift"`
	LoyaltyCard       *jsonfield.LoyaltyCard       `json:"loyalty_card"`
	CodeConfig        *jsonfield.CodeConfig        `json:"code_config"`
	Category          *string                      `json:"category"`    // a name: found or created (see campaignCategory)
	CategoryID        *string                      `json:"category_id"` // a category of the project; wins over Category
	StartDate         *time.Time                   `json:"start_date"`
	ExpirationDate    *time.Time                   `json:"expiration_date"`
	ValidityTimeframe *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek []int                        `json:"validity_day_of_week"`
	ValidityHours     *jsonfield.ValidityHours     `json:"validity_hours"`
	Active            *bool                        `json:"active"`
	AdditionalInfo    *string                      `json:"additional_info"`
	Metadata          map[string]any               `json:"metadata"`
	Redemption        *jsonfield.Redemption        `json:"redemption"`
	// ValidationRules are assigned to the new voucher (val_… IDs, at most
	// MaxVoucherRules).
	ValidationRules []string `json:"validation_rules"`
}

// campaignTypeOf is the campaign type whose rules a standalone voucher of
// type t follows.
var campaignTypeOf = map[jsonfield.VoucherType]campaign.CampaignType{
	jsonfield.VoucherTypeDiscount:    campaign.CampaignTypeDISCOUNT_COUPONS,
	jsonfield.VoucherTypeGift:        campaign.CampaignTypeGIFT_VOUCHERS,
	jsonfield.VoucherTypeLoyaltyCard: campaign.CampaignTypeLOYALTY_PROGRAM,
}

// CreateStandaloneVoucher stores a voucher outside any campaign.
func CreateStandaloneVoucher(ctx context.Context, in CreateVoucherInput) (*ent.Voucher, error) {
	typ := jsonfield.VoucherTypeDiscount
	if in.Type != nil {
		typ = *in.Type
	}
	kind, ok := campaignTypeOf[typ]
	if !ok {
		return nil, apperr.InvalidPayload("Property .type must be one of DISCOUNT_VOUCHER, GIFT_VOUCHER, LOYALTY_CARD, got %q", typ)
	}
	profile, err := normalizeVoucherProfile(kind, &jsonfield.VoucherProfile{Type: typ, Discount: in.Discount, Gift: in.Gift,
		LoyaltyCard: in.LoyaltyCard, Redemption: in.Redemption, CodeConfig: in.CodeConfig})
	if err != nil {
		return nil, err
	}
	cat, _, err := campaignCategory(ctx, in.Category, in.CategoryID) // category_assign.go
	if err != nil {
		return nil, err
	}
	catName, catID := categoryNameID(cat)
	tmpl := &jsonfield.VoucherTemplate{Type: profile.Type, Discount: profile.Discount, Gift: profile.Gift,
		LoyaltyCard: profile.LoyaltyCard, RedemptionQuantity: profile.Redemption.Quantity, Category: catName, CategoryID: catID,
		StartDate: utcPtr(in.StartDate), ExpirationDate: utcPtr(in.ExpirationDate), ValidityTimeframe: in.ValidityTimeframe,
		ValidityDayOfWeek: in.ValidityDayOfWeek, ValidityHours: in.ValidityHours, Active: in.Active == nil || *in.Active,
		AdditionalInfo: in.AdditionalInfo, Metadata: in.Metadata}
	if err := (validity{StartDate: tmpl.StartDate, ExpirationDate: tmpl.ExpirationDate, Timeframe: tmpl.ValidityTimeframe,
		DaysOfWeek: tmpl.ValidityDayOfWeek, Hours: tmpl.ValidityHours}).validate(); err != nil {
		return nil, err
	}
	if err := checkRuleCount(in.ValidationRules, MaxVoucherRules); err != nil {
		return nil, err
	}
	pid, err := store.ProjectOf(ctx)
	if err != nil {
		return nil, err
	}
	v, err := insertNewCode(ctx, in.Code, profile.CodeConfig, func(code string) (*ent.Voucher, error) {
		return insertStandalone(ctx, pid, tmpl, code)
	})
	if err != nil {
		return nil, err
	}
	if _, err := AssignRules(ctx, validationruleassignment.RelatedObjectTypeVoucher, v.ID, in.ValidationRules); err != nil {
		return nil, err
	}
	return v, nil
}

// insertStandalone inserts one campaign-less voucher and reads it back; an
// existing code is a duplicate_key error.
func insertStandalone(ctx context.Context, projectID string, tmpl *jsonfield.VoucherTemplate, code string) (*ent.Voucher, error) {
	n, err := InsertVouchers(ctx, projectID, nil, tmpl, []string{code})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apperr.New(http.StatusBadRequest, "duplicate_key", "Duplicate codes", "1 voucher codes(s) already exist.")
	}
	v, err := VoucherByCodeOrID(ctx, code)
	if err != nil {
		return nil, err
	}
	return v, emitVoucher(ctx, webhook.EventVoucherCreated, v)
}
