package jsonfield

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// PayWithPoints is a v2 card definition's pay-with-points configuration
// (REST `pay_with_points`): type NO_PAYMENTS (the default) or
// EXCHANGE_RATIO with the formula that turns points into money. It is a
// GraphQL scalar whose value is the REST object.
type PayWithPoints struct {
	Type          string              `json:"type"`
	ExchangeRatio *PayWithPointsRatio `json:"exchange_ratio,omitempty"`
}

// PayWithPointsRatio is {formula}: the amount (in the currency's minor
// unit) one point pays.
type PayWithPointsRatio struct {
	Formula FormulaText `json:"formula"`
}

// FormulaText is a formula written as a string or a number (the documents
// accept both; numbers are kept as their string).
type FormulaText string

// UnmarshalJSON accepts a JSON string or number.
func (f *FormulaText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("decoding formula: %w", err)
		}
		*f = FormulaText(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("formula must be a string or a number: %w", err)
	}
	if _, err := strconv.ParseFloat(string(n), 64); err != nil {
		return fmt.Errorf("formula must be a string or a number: %w", err)
	}
	*f = FormulaText(n.String())
	return nil
}

// MarshalGQL implements graphql.Marshaler.
func (v PayWithPoints) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *PayWithPoints) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// PendingPoints is a v2 card definition's pending-points policy (REST
// `pending_points`): IMMEDIATE (the default; no pending period) or
// PERIOD_BASED, where earned points wait period_based.period before they
// join the balance, FIXED_DATES (they join on the next of fixed_dates'
// calendar days) or EVENT_BASED (they join when the customer sends one
// of event_based's custom events, and are canceled after its
// cancel_period).
type PendingPoints struct {
	Type        string              `json:"type"`
	PeriodBased *PendingPeriodBased `json:"period_based,omitempty"`
	FixedDates  *PendingFixedDates  `json:"fixed_dates,omitempty"`
	EventBased  *PendingEventBased  `json:"event_based,omitempty"`
}

// PendingFixedDates is {dates: [{day, month}]} (1–20 calendar days).
type PendingFixedDates struct {
	Dates []CalendarDate `json:"dates"`
}

// CalendarDate is a day of a month, every year.
type CalendarDate struct {
	Day   int `json:"day"`
	Month int `json:"month"`
}

// PendingEventBased is {event_types: ["ms_…"], cancel_period: {value, unit}}.
type PendingEventBased struct {
	EventTypes   []string      `json:"event_types"`
	CancelPeriod PendingPeriod `json:"cancel_period"`
}

// PendingPeriodBased is {period: {value, unit DAY|MONTH|YEAR}}.
type PendingPeriodBased struct {
	Period PendingPeriod `json:"period"`
}

// PendingPeriod is a pending period: value units.
type PendingPeriod struct {
	Value int    `json:"value"`
	Unit  string `json:"unit"`
}

// MarshalGQL implements graphql.Marshaler.
func (v PendingPoints) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *PendingPoints) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }
