package loyaltybase

import (
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// Inputs of the loyalty mutations. gqlgen binds the GraphQL inputs to them
// by field name; REST decodes the interface's snake_case JSON into them.
// Required fields are pointers so that a missing one is a 400 naming it
// (not a decoding error) on both transports.

// CreateLoyaltyProgramInput is the body of POST /v2/loyalties/programs.
type CreateLoyaltyProgramInput struct {
	Name            *string                `json:"name"`
	Status          *loyaltyprogram.Status `json:"status"`
	StartDate       *time.Time             `json:"start_date"`
	EndDate         *time.Time             `json:"end_date"`
	Metadata        map[string]any         `json:"metadata"`
	CardDefinitions []*jsonfield.IDRef     `json:"card_definitions"`
}

// UpdateLoyaltyProgramInput is the body of PUT /v2/loyalties/programs/{id}.
type UpdateLoyaltyProgramInput struct {
	Name            *string            `json:"name"`
	StartDate       *time.Time         `json:"start_date"`
	EndDate         *time.Time         `json:"end_date"`
	Metadata        map[string]any     `json:"metadata"`
	CardDefinitions []*jsonfield.IDRef `json:"card_definitions"`
	// Nulls are the members sent as an explicit null: start_date,
	// end_date and metadata clear; name cannot be null.
	shape.Nulls
}

// UpdateCardDefinitionInput is the body of PUT /v2/loyalties/card-definitions/{id}.
type UpdateCardDefinitionInput struct {
	Name          *string                  `json:"name"`
	CodeConfig    *jsonfield.CodeConfig    `json:"code_config"`
	Metadata      map[string]any           `json:"metadata"`
	PayWithPoints *jsonfield.PayWithPoints `json:"pay_with_points"`
	PendingPoints *jsonfield.PendingPoints `json:"pending_points"`
	// CardSettingsInput: points_expiration, limits, refunds,
	// balance_settings (card_settings.go); null restores a default.
	CardSettingsInput
	// Nulls are the members sent as an explicit null: metadata empties;
	// name and code_config cannot be null.
	shape.Nulls
}

// CreateCardDefinitionInput is the body of POST /v2/loyalties/card-definitions.
type CreateCardDefinitionInput struct {
	Name          *string                  `json:"name"`
	Status        *carddefinition.Status   `json:"status"`
	CodeConfig    *jsonfield.CodeConfig    `json:"code_config"`
	Metadata      map[string]any           `json:"metadata"`
	PayWithPoints *jsonfield.PayWithPoints `json:"pay_with_points"`
	PendingPoints *jsonfield.PendingPoints `json:"pending_points"`
	// CardSettingsInput: points_expiration, limits, refunds,
	// balance_settings (card_settings.go).
	CardSettingsInput
}

// CreateLoyaltyMemberInput is the body of POST /v2/loyalties/programs/{id}/members.
type CreateLoyaltyMemberInput struct {
	CustomerID *string               `json:"customer_id"`
	Status     *loyaltymember.Status `json:"status"`
	Metadata   map[string]any        `json:"metadata"`
}

// CreateRewardInput is the body of POST /v2/loyalties/rewards.
type CreateRewardInput struct {
	Name     *string                   `json:"name"`
	Type     *reward.Type              `json:"type"`
	Status   *reward.Status            `json:"status"`
	Material *jsonfield.MaterialDetail `json:"material"`
	Digital  *jsonfield.DigitalDetail  `json:"digital"`
	Metadata map[string]any            `json:"metadata"`
	// Nulls are the members sent as an explicit null: metadata empties;
	// name, material and digital cannot be null.
	shape.Nulls
}

// UpdateRewardInput is the body of PUT /v2/loyalties/rewards/{id}.
type UpdateRewardInput struct {
	Name     *string                   `json:"name"`
	Material *jsonfield.MaterialDetail `json:"material"`
	Digital  *jsonfield.DigitalDetail  `json:"digital"`
	Metadata map[string]any            `json:"metadata"`
	// Nulls are the members sent as an explicit null: metadata empties;
	// name, material and digital cannot be null.
	shape.Nulls
}

// CreateEarningRuleInput is the body of POST /v2/loyalties/earning-rules.
type CreateEarningRuleInput struct {
	Name          *string                         `json:"name"`
	Status        *earningrule.Status             `json:"status"`
	Trigger       *jsonfield.EarningTrigger       `json:"trigger"`
	Earnings      jsonfield.Earnings              `json:"earnings"`
	Error         map[string]any                  `json:"error"`
	ValidityHours *jsonfield.EarningValidityHours `json:"validity_hours"`
	TriggerLimits *jsonfield.TriggerLimits        `json:"trigger_limits"`
	StartDate     *time.Time                      `json:"start_date"`
	EndDate       *time.Time                      `json:"end_date"`
	Metadata      map[string]any                  `json:"metadata"`
}

// CreateIncentiveInput is the body of POST /v2/loyalties/incentives.
type CreateIncentiveInput struct {
	Name               *string                       `json:"name"`
	Type               *incentive.Type               `json:"type"`
	Status             *incentive.Status             `json:"status"`
	Stock              *int64                        `json:"stock"`
	Points             *jsonfield.IncentivePoints    `json:"points"`
	PointsProportional *jsonfield.PointsProportional `json:"points_proportional"`
	Material           *jsonfield.MaterialDetail     `json:"material"`
	Digital            *jsonfield.DigitalDetail      `json:"digital"`
}

// UpdateEarningRuleInput is the body of PUT /v2/loyalties/earning-rules/{id}.
type UpdateEarningRuleInput struct {
	Name          *string                         `json:"name"`
	Trigger       *jsonfield.EarningTrigger       `json:"trigger"`
	Earnings      jsonfield.Earnings              `json:"earnings"`
	Error         map[string]any                  `json:"error"`
	ValidityHours *jsonfield.EarningValidityHours `json:"validity_hours"`
	TriggerLimits *jsonfield.TriggerLimits        `json:"trigger_limits"`
	StartDate     *time.Time                      `json:"start_date"`
	EndDate       *time.Time                      `json:"end_date"`
	Metadata      map[string]any                  `json:"metadata"`
	// Nulls are the members sent as an explicit null: error,
	// validity_hours, trigger_limits, start_date, end_date and metadata
	// clear; name, trigger and earnings cannot be null.
	shape.Nulls
}

// UpdateIncentiveInput is the body of PUT /v2/loyalties/incentives/{id}.
type UpdateIncentiveInput struct {
	Name               *string                       `json:"name"`
	Stock              *int64                        `json:"stock"`
	Points             *jsonfield.IncentivePoints    `json:"points"`
	PointsProportional *jsonfield.PointsProportional `json:"points_proportional"`
	Material           *jsonfield.MaterialDetail     `json:"material"`
	Digital            *jsonfield.DigitalDetail      `json:"digital"`
	// Nulls: name and stock cannot be null (the other members keep their
	// values when left out or null: a detail object replaces the other).
	shape.Nulls
}

// AdjustPointsInput is the body of POST …/cards/{cardId}/points.
type AdjustPointsInput struct {
	Points   int64   `json:"points"`
	Reason   *string `json:"reason"`
	SourceID *string `json:"source_id"`
}

// PointsAdjustment is the result of a points adjustment.
type PointsAdjustment struct {
	Status      string               `json:"status"`
	Message     string               `json:"message"`
	Transaction *ent.CardTransaction `json:"transaction"`
}

// CardSettingsInput are the settings members of a card definition's
// create and update bodies; null on update restores a member's default.
type CardSettingsInput struct {
	PointsExpiration *jsonfield.CardPointsExpiration `json:"points_expiration"`
	EarningLimits    *jsonfield.CardLimits           `json:"earning_limits"`
	SpendingLimits   *jsonfield.CardLimits           `json:"spending_limits"`
	Refunds          *jsonfield.CardRefunds          `json:"refunds"`
	BalanceSettings  *jsonfield.CardBalanceSettings  `json:"balance_settings"`
}
