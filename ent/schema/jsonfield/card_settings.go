package jsonfield

import "io"

// CardSettings are the parts of a v2 card definition the documents
// (loyalties-v2.json, CardDefinitionResponse) give beside its code, pay-with-
// points and pending-points configuration: how earned points expire, the
// earning and spending limits, what a refund does to points, and whether a
// balance may go below zero. A nil member was never set; the answer shows
// its default (graph/loyalty/card_settings.go).
type CardSettings struct {
	PointsExpiration *CardPointsExpiration `json:"points_expiration,omitempty"`
	EarningLimits    *CardLimits           `json:"earning_limits,omitempty"`
	SpendingLimits   *CardLimits           `json:"spending_limits,omitempty"`
	Refunds          *CardRefunds          `json:"refunds,omitempty"`
	BalanceSettings  *CardBalanceSettings  `json:"balance_settings,omitempty"`
}

// CardPointsExpiration is a card definition's points_expiration: its type
// (NO_EXPIRATION, ROLLING_EXPIRATION, CALENDAR_EXPIRATION,
// SLIDING_EXPIRATION) and the matching variant of an earning effect's
// points_expiration.
type CardPointsExpiration struct {
	Type string `json:"type"`
	PointsExpiration
}

// CardLimits are earning_limits or spending_limits: a global limit and a
// per-transaction one.
type CardLimits struct {
	Global       *CardLimitGroup `json:"global"`
	Transactions *CardLimitGroup `json:"transactions"`
}

// CardLimitGroup is {type: NO_LIMIT|LIMITED, limits}.
type CardLimitGroup struct {
	Type   string      `json:"type"`
	Limits []CardLimit `json:"limits"`
}

// CardLimit is one limit: its type (BALANCE_BASED, TIME_BASED,
// SPENDING_BASED, POINTS, SPENDING), a maximum, the smallest order amount
// (SPENDING), and the period and points of a time-based limit.
type CardLimit struct {
	Type      string          `json:"type"`
	Max       *int64          `json:"max,omitempty"`
	MinAmount *int64          `json:"min_amount,omitempty"`
	Period    *CardLimitRange `json:"period,omitempty"`
	Points    *CardLimitMax   `json:"points,omitempty"`
}

// CardLimitRange is a time-based limit's period: {type: CURRENT_PERIOD,
// current_period}, kept as sent.
type CardLimitRange struct {
	Type          string         `json:"type"`
	CurrentPeriod map[string]any `json:"current_period,omitempty"`
}

// CardLimitMax is {max}.
type CardLimitMax struct {
	Max int64 `json:"max"`
}

// CardRefunds says what refunds do to the points spent on and earned by an
// order.
type CardRefunds struct {
	SpentPoints  *CardRefundPolicy `json:"spent_points"`
	EarnedPoints *CardRefundPolicy `json:"earned_points"`
}

// CardRefundPolicy is {type: NONE|REFUNDABLE, methods}.
type CardRefundPolicy struct {
	Type    string             `json:"type"`
	Methods []CardRefundMethod `json:"methods"`
}

// CardRefundMethod is one refund method: RETURN_POINTS (spent points;
// mode REFUND_ALL, REFUND_ITEM, REFUND_AMOUNT) or REVOKE_FROM_PENDING /
// REVOKE_FROM_BALANCE (earned points; mode REVOKE_TO_ZERO,
// REVOKE_BELOW_ZERO).
type CardRefundMethod struct {
	Type string  `json:"type"`
	Mode *string `json:"mode,omitempty"`
}

// CardBalanceSettings is {allow_negative}.
type CardBalanceSettings struct {
	AllowNegative bool `json:"allow_negative"`
}

// GraphQL scalars of the card definition settings: the REST objects as is
// (graph/schema/loyalty_v2_settings.graphqls).

// MarshalGQL implements graphql.Marshaler.
func (v CardSettings) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *CardSettings) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v CardPointsExpiration) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *CardPointsExpiration) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v CardLimits) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *CardLimits) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v CardRefunds) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *CardRefunds) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v CardBalanceSettings) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *CardBalanceSettings) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }
