package campaign

import (
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
)

// Named charsets of the real service; clients send the literal strings.
const (
	CharsetAlphanumeric = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	defaultCodeLength   = 8
	maxCodeLength       = 100
)

// voucherTypeFor is the voucher type each campaign type issues.
var voucherTypeFor = map[campaign.CampaignType]jsonfield.VoucherType{
	campaign.CampaignTypeDISCOUNT_COUPONS: jsonfield.VoucherTypeDiscount,
	campaign.CampaignTypePROMOTION:        jsonfield.VoucherTypeDiscount,
	campaign.CampaignTypeREFERRAL_PROGRAM: jsonfield.VoucherTypeDiscount,
	campaign.CampaignTypeGIFT_VOUCHERS:    jsonfield.VoucherTypeGift,
	campaign.CampaignTypeLOYALTY_PROGRAM:  jsonfield.VoucherTypeLoyaltyCard,
}

// campaignTypeFor infers a campaign type from the voucher type when the
// caller gave only the latter.
var campaignTypeFor = map[jsonfield.VoucherType]campaign.CampaignType{
	jsonfield.VoucherTypeDiscount:    campaign.CampaignTypeDISCOUNT_COUPONS,
	jsonfield.VoucherTypeGift:        campaign.CampaignTypeGIFT_VOUCHERS,
	jsonfield.VoucherTypeLoyaltyCard: campaign.CampaignTypeLOYALTY_PROGRAM,
}

// normalizeVoucherProfile validates a campaign's voucher profile and fills
// its defaults: the voucher type of the campaign type, the default code
// configuration, a gift's balance, the referral flag.
func normalizeVoucherProfile(kind campaign.CampaignType, p *jsonfield.VoucherProfile) (*jsonfield.VoucherProfile, error) {
	want := voucherTypeFor[kind]
	if p == nil {
		p = &jsonfield.VoucherProfile{}
	}
	out := *p
	switch {
	case out.Type == "":
		out.Type = want
	case !out.Type.IsValid():
		return nil, apperr.InvalidPayload("Property .voucher.type must be one of GIFT_VOUCHER, DISCOUNT_VOUCHER, LOYALTY_CARD, got %q", out.Type)
	case out.Type != want && !(kind == campaign.CampaignTypeREFERRAL_PROGRAM && out.Type == jsonfield.VoucherTypeGift):
		return nil, apperr.InvalidPayload("Property .voucher.type %s does not match campaign_type %s (expected %s)", out.Type, kind, want)
	}
	if err := checkValueObjects(&out); err != nil {
		return nil, err
	}
	if out.Redemption != nil && out.Redemption.Quantity != nil && *out.Redemption.Quantity < 1 {
		return nil, apperr.InvalidPayload("Property .voucher.redemption.quantity must be at least 1 (or null for unlimited)")
	}
	if out.Redemption == nil {
		out.Redemption = &jsonfield.Redemption{}
	}
	cc, err := NormalizeCodeConfig(".voucher.code_config", out.CodeConfig)
	if err != nil {
		return nil, err
	}
	out.CodeConfig = cc
	out.IsReferralCode = kind == campaign.CampaignTypeREFERRAL_PROGRAM
	return &out, nil
}

// checkValueObjects makes sure the value object matches the voucher type:
// a discount for discount vouchers, a gift for gift vouchers, a card for
// loyalty cards.
func checkValueObjects(p *jsonfield.VoucherProfile) error {
	if p.Type != jsonfield.VoucherTypeDiscount && p.Discount != nil {
		return apperr.InvalidPayload("Property .voucher.discount is only allowed for DISCOUNT_VOUCHER vouchers")
	}
	if p.Type != jsonfield.VoucherTypeGift && p.Gift != nil {
		return apperr.InvalidPayload("Property .voucher.gift is only allowed for GIFT_VOUCHER vouchers")
	}
	if p.Type != jsonfield.VoucherTypeLoyaltyCard && p.LoyaltyCard != nil {
		return apperr.InvalidPayload("Property .voucher.loyalty_card is only allowed for LOYALTY_CARD vouchers")
	}
	if d := p.Discount; d != nil {
		if err := validateDiscount(d); err != nil {
			return err
		}
	}
	if g := p.Gift; g != nil {
		if g.Amount < 0 {
			return apperr.InvalidPayload("Property .voucher.gift.amount must be >= 0")
		}
		g.Balance, g.SubtractedAmount = g.Amount, 0
	}
	if p.Type == jsonfield.VoucherTypeGift && p.Gift == nil {
		p.Gift = &jsonfield.Gift{}
	}
	if l := p.LoyaltyCard; l != nil {
		if l.Points < 0 {
			return apperr.InvalidPayload("Property .voucher.loyalty_card.points must be >= 0")
		}
		l.Balance = l.Points
	}
	if p.Type == jsonfield.VoucherTypeLoyaltyCard && p.LoyaltyCard == nil {
		p.LoyaltyCard = &jsonfield.LoyaltyCard{}
	}
	return nil
}

func validateDiscount(d *jsonfield.Discount) error { return validateDiscountAt(".voucher.discount", d) }

// validateDiscountAt checks a discount definition; prop names it in errors.
func validateDiscountAt(prop string, d *jsonfield.Discount) error {
	if err := checkFormulas(prop, d); err != nil {
		return err
	}
	switch d.Type {
	case jsonfield.DiscountTypeAmount:
		if d.AmountOff == nil && d.AmountOffFormula == nil {
			return apperr.InvalidPayload("Property %s.amount_off is required for AMOUNT discounts", prop)
		}
		if d.AmountOff != nil && *d.AmountOff < 0 {
			return apperr.InvalidPayload("Property %s.amount_off must be >= 0", prop)
		}
	case jsonfield.DiscountTypePercent:
		if d.PercentOff == nil && d.PercentOffFormula == nil {
			return apperr.InvalidPayload("Property %s.percent_off is required for PERCENT discounts", prop)
		}
		if d.PercentOff != nil && (*d.PercentOff < 0 || *d.PercentOff > 100) {
			return apperr.InvalidPayload("Property %s.percent_off must be between 0 and 100", prop)
		}
	case jsonfield.DiscountTypeUnit:
		if d.Effect != nil && *d.Effect == string(discount.EffectAddManyItems) {
			break
		}
		if d.UnitType == nil || *d.UnitType == "" {
			return apperr.InvalidPayload("Property %s.unit_type is required for UNIT discounts", prop)
		}
		if d.UnitOff != nil && *d.UnitOff < 0 {
			return apperr.InvalidPayload("Property %s.unit_off must be >= 0", prop)
		}
	case jsonfield.DiscountTypeFixed:
		// APPLY_TO_ITEMS may leave the new price to the rules' applicable_to
		// entries (price), as the reference's "Promotion Tier Metadata" example.
		if d.FixedAmount == nil && (d.Effect == nil || *d.Effect != string(discount.EffectApplyToItems)) {
			return apperr.InvalidPayload("Property %s.fixed_amount is required for FIXED discounts (unless effect is APPLY_TO_ITEMS and the rules' applicable_to entries carry the price)", prop)
		}
	default:
		return apperr.InvalidPayload("Property %s.type must be one of AMOUNT, PERCENT, UNIT, FIXED, got %q", prop, d.Type)
	}
	// What the calculation can apply: effects allowed for the type, units.
	if err := DiscountOf(d).Validate(); err != nil {
		return apperr.InvalidPayload("Property %s: %s", prop, strings.TrimPrefix(err.Error(), discount.ErrInvalidDiscount.Error()+": "))
	}
	return nil
}

// NormalizeCodeConfig validates a code configuration and completes it the
// way the real service echoes it: charset defaults to alphanumeric, length
// to 8, and pattern and length always agree (pattern wins).
func NormalizeCodeConfig(path string, in *jsonfield.CodeConfig) (*jsonfield.CodeConfig, error) {
	out := jsonfield.CodeConfig{}
	if in != nil {
		out = *in
	}
	out.InitialCount = nil
	if out.Charset == nil || *out.Charset == "" {
		cs := CharsetAlphanumeric
		out.Charset = &cs
	}
	if !utf8.ValidString(*out.Charset) {
		return nil, apperr.InvalidPayload("Property %s.charset must be valid text", path)
	}
	switch {
	case out.Pattern != nil && *out.Pattern != "":
		n := strings.Count(*out.Pattern, "#")
		if n == 0 {
			return nil, apperr.InvalidPayload("Property %s.pattern must contain at least one # placeholder", path)
		}
		out.Length = &n
	default:
		n := defaultCodeLength
		if out.Length != nil {
			n = *out.Length
		}
		if n < 1 || n > maxCodeLength {
			return nil, apperr.InvalidPayload("Property %s.length must be between 1 and %d, got %d", path, maxCodeLength, n)
		}
		pattern := strings.Repeat("#", n)
		out.Length, out.Pattern = &n, &pattern
	}
	if *out.Length > maxCodeLength {
		return nil, apperr.InvalidPayload("Property %s.pattern may hold at most %d # placeholders", path, maxCodeLength)
	}
	return &out, nil
}
