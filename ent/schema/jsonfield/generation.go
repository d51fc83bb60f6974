package jsonfield

import (
	"encoding/json"
	"time"
)

// VoucherTemplate is everything a new voucher gets besides its code: the
// campaign's voucher profile merged with the request's overrides, resolved
// when the request is accepted (later campaign edits do not change it).
type VoucherTemplate struct {
	Type               VoucherType        `json:"type"`
	Discount           *Discount          `json:"discount,omitempty"`
	Gift               *Gift              `json:"gift,omitempty"`
	LoyaltyCard        *LoyaltyCard       `json:"loyalty_card,omitempty"`
	RedemptionQuantity *int               `json:"redemption_quantity,omitempty"`
	Category           *string            `json:"category,omitempty"`
	CategoryID         *string            `json:"category_id,omitempty"`
	StartDate          *time.Time         `json:"start_date,omitempty"`
	ExpirationDate     *time.Time         `json:"expiration_date,omitempty"`
	ValidityTimeframe  *ValidityTimeframe `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek  []int              `json:"validity_day_of_week,omitempty"`
	ValidityHours      *ValidityHours     `json:"validity_hours,omitempty"`
	Active             bool               `json:"active"`
	AdditionalInfo     *string            `json:"additional_info,omitempty"`
	Metadata           map[string]any     `json:"metadata,omitempty"`
	IsReferralCode     bool               `json:"is_referral_code"`
	// RedeemedQuantity is how often an imported code was redeemed before
	// (0 for every code made here).
	RedeemedQuantity int `json:"redeemed_quantity,omitempty"`
}

// GenerationParams is the request of a bulk voucher generation job.
type GenerationParams struct {
	// Count is the number of new vouchers to make.
	Count int `json:"count"`
	// CodeConfig is the complete (normalized) code configuration.
	CodeConfig CodeConfig `json:"code_config"`
	// Template is what every generated voucher gets besides its code.
	Template VoucherTemplate `json:"template"`
	// Items are the request of a bulk job over a list (voucher import,
	// metadata bulk update), as the job's use case encodes it.
	Items json.RawMessage `json:"items,omitempty"`
}
