package jsonfield

import (
	"fmt"
	"io"
	"strconv"
)

// VoucherType is the kind of voucher a campaign issues.
type VoucherType string

// Voucher types of the interface.
const (
	VoucherTypeGift        VoucherType = "GIFT_VOUCHER"
	VoucherTypeDiscount    VoucherType = "DISCOUNT_VOUCHER"
	VoucherTypeLoyaltyCard VoucherType = "LOYALTY_CARD"
)

// VoucherTypes lists every valid VoucherType.
var VoucherTypes = []VoucherType{VoucherTypeGift, VoucherTypeDiscount, VoucherTypeLoyaltyCard}

// IsValid reports whether t is one of VoucherTypes.
func (t VoucherType) IsValid() bool { return oneOf(t, VoucherTypes) }

// Values lists the enum values (for ent's enum column).
func (VoucherType) Values() []string {
	out := make([]string, len(VoucherTypes))
	for i, t := range VoucherTypes {
		out[i] = string(t)
	}
	return out
}

// MarshalGQL writes t as a GraphQL enum value.
func (t VoucherType) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(t))) }

// UnmarshalGQL reads a GraphQL enum value.
func (t *VoucherType) UnmarshalGQL(v any) error { return unmarshalEnum(v, t, VoucherTypes) }

// DiscountType is the kind of discount a discount voucher gives.
type DiscountType string

// Discount types real clients send.
const (
	DiscountTypeAmount  DiscountType = "AMOUNT"
	DiscountTypePercent DiscountType = "PERCENT"
	DiscountTypeUnit    DiscountType = "UNIT"
	DiscountTypeFixed   DiscountType = "FIXED"
)

// DiscountTypes lists every valid DiscountType.
var DiscountTypes = []DiscountType{DiscountTypeAmount, DiscountTypePercent, DiscountTypeUnit, DiscountTypeFixed}

// IsValid reports whether t is one of DiscountTypes.
func (t DiscountType) IsValid() bool { return oneOf(t, DiscountTypes) }

// MarshalGQL writes t as a GraphQL enum value.
func (t DiscountType) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(t))) }

// UnmarshalGQL reads a GraphQL enum value.
func (t *DiscountType) UnmarshalGQL(v any) error { return unmarshalEnum(v, t, DiscountTypes) }

func oneOf[T comparable](v T, all []T) bool {
	for _, a := range all {
		if a == v {
			return true
		}
	}
	return false
}

func unmarshalEnum[T ~string](v any, dst *T, all []T) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("enum value must be a string, got %T", v)
	}
	if !oneOf(T(s), all) {
		return fmt.Errorf("%q is not a valid value", s)
	}
	*dst = T(s)
	return nil
}

// Discount describes what a discount voucher takes off. Which fields apply
// depends on Type (amount_off for AMOUNT, percent_off for PERCENT, ...).
type Discount struct {
	Type                  DiscountType `json:"type"`
	AmountOff             *float64     `json:"amount_off,omitempty"`
	AmountOffFormula      *string      `json:"amount_off_formula,omitempty"`
	AggregatedAmountLimit *int64       `json:"aggregated_amount_limit,omitempty"`
	PercentOff            *float64     `json:"percent_off,omitempty"`
	PercentOffFormula     *string      `json:"percent_off_formula,omitempty"`
	AmountLimit           *float64     `json:"amount_limit,omitempty"`
	UnitOff               *int64       `json:"unit_off,omitempty"`
	UnitOffFormula        *string      `json:"unit_off_formula,omitempty"`
	UnitType              *string      `json:"unit_type,omitempty"`
	FixedAmount           *float64     `json:"fixed_amount,omitempty"`
	FixedAmountFormula    *string      `json:"fixed_amount_formula,omitempty"`
	IsDynamic             *bool        `json:"is_dynamic,omitempty"`
	Effect                *string      `json:"effect,omitempty"`
	// Units are the unit definitions of a UNIT discount with effect
	// ADD_MANY_ITEMS.
	Units []DiscountUnit `json:"units,omitempty"`
}

// DiscountUnit is one unit definition of an ADD_MANY_ITEMS discount: how
// many units of which product are given, and how (ADD_MISSING_ITEMS or
// ADD_NEW_ITEMS).
type DiscountUnit struct {
	UnitOff  *int64  `json:"unit_off,omitempty"`
	UnitType *string `json:"unit_type,omitempty"`
	Effect   *string `json:"effect,omitempty"`
}

// Gift is the value of a gift voucher, in the smallest currency unit.
type Gift struct {
	Amount           int64   `json:"amount"`
	SubtractedAmount int64   `json:"subtracted_amount"`
	Balance          int64   `json:"balance"`
	Effect           *string `json:"effect,omitempty"`
}

// LoyaltyCard holds a loyalty card's points.
type LoyaltyCard struct {
	Points               int64   `json:"points"`
	Balance              int64   `json:"balance"`
	NextExpirationDate   *string `json:"next_expiration_date,omitempty"`
	NextExpirationPoints *int64  `json:"next_expiration_points,omitempty"`
	PendingPoints        *int64  `json:"pending_points,omitempty"`
	ExpiredPoints        *int64  `json:"expired_points,omitempty"`
	SubtractedPoints     *int64  `json:"subtracted_points,omitempty"`
	// ExpirationRules is a loyalty program's default points expiry
	// (period_type, period_value, rounding_type, …), kept on the
	// program's card template as sent (v1 loyalties).
	ExpirationRules map[string]any `json:"expiration_rules,omitempty"`
}

// Redemption limits how often a voucher can be redeemed; a nil Quantity
// means unlimited.
type Redemption struct {
	Quantity *int `json:"quantity"`
}

// VoucherProfile is the template a campaign's vouchers are made from.
type VoucherProfile struct {
	Type           VoucherType  `json:"type"`
	Discount       *Discount    `json:"discount,omitempty"`
	Gift           *Gift        `json:"gift,omitempty"`
	LoyaltyCard    *LoyaltyCard `json:"loyalty_card,omitempty"`
	Redemption     *Redemption  `json:"redemption,omitempty"`
	CodeConfig     *CodeConfig  `json:"code_config,omitempty"`
	IsReferralCode bool         `json:"is_referral_code"`
}

// CodeConfig describes how voucher codes are generated: Pattern's '#'
// characters are replaced by random Charset characters (Pattern overrides
// Length), framed by Prefix and Postfix.
type CodeConfig struct {
	Length       *int    `json:"length,omitempty"`
	Charset      *string `json:"charset,omitempty"`
	Prefix       *string `json:"prefix,omitempty"`
	Postfix      *string `json:"postfix,omitempty"`
	Pattern      *string `json:"pattern,omitempty"`
	InitialCount *int    `json:"initial_count,omitempty"`
}

// MetadataProperty is one property of a metadata schema: its type
// (string, number, object, date, datetime, geopoint, boolean or
// image_url), whether it may be left out, whether
// its value is an array of such values, and the real service's optional
// constraints on the values (graph/metadata_property.go): lengths for
// strings, allowed values (eq) for strings and numbers, refused values (ne)
// and bounds for numbers. ObjectType names a custom resource of an object.
type MetadataProperty struct {
	Type        string    `json:"type"`
	Optional    bool      `json:"optional"`
	Array       bool      `json:"array"`
	ObjectType  *string   `json:"object_type,omitempty"`
	MinLength   *int      `json:"min_length,omitempty"`
	MaxLength   *int      `json:"max_length,omitempty"`
	ExactLength *int      `json:"exact_length,omitempty"`
	Eq          []any     `json:"eq,omitempty"`
	Ne          []float64 `json:"ne,omitempty"`
	LT          *float64  `json:"lt,omitempty"`
	LTE         *float64  `json:"lte,omitempty"`
	GT          *float64  `json:"gt,omitempty"`
	GTE         *float64  `json:"gte,omitempty"`
}
