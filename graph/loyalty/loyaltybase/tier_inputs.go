package loyaltybase

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// Inputs and results of tier structures, program sub-resources, reward
// purchases and activities (loyalties-v2.json, loyalties-v2-benefits.json).
// gqlgen binds the GraphQL inputs to them by field name; REST decodes the
// documents' snake_case JSON into them.

// CreateTierStructureInput is the body of POST /v2/loyalties/tier-structures.
type CreateTierStructureInput struct {
	Name             *string        `json:"name"`
	Type             *string        `json:"type"`
	CardDefinitionID *string        `json:"card_definition_id"`
	PointEarned      map[string]any `json:"point_earned"`
	Expiration       map[string]any `json:"expiration"`
	Downgrade        map[string]any `json:"downgrade"`
	Metadata         map[string]any `json:"metadata"`
	Status           *string        `json:"status"`
}

// UpdateTierStructureInput is the body of PUT /v2/loyalties/tier-structures/{id}:
// the given fields replace the stored ones (type and card definition are fixed).
type UpdateTierStructureInput struct {
	Name        *string        `json:"name"`
	PointEarned map[string]any `json:"point_earned"`
	Expiration  map[string]any `json:"expiration"`
	Downgrade   map[string]any `json:"downgrade"`
	Metadata    map[string]any `json:"metadata"`
	// Nulls are the members sent as an explicit null: expiration,
	// downgrade and metadata clear; name and point_earned cannot be null.
	shape.Nulls
}

// TierInput is the body of POST …/tier-structures/{id}/tiers and of PUT
// …/tiers/{tierId} (where every field is optional).
type TierInput struct {
	Name               *string                 `json:"name"`
	QualificationRules *TierQualificationInput `json:"qualification_rules"`
	Downgrade          *TierDowngradeInput     `json:"downgrade"`
	Metadata           map[string]any          `json:"metadata"`
	// Nulls: on an update metadata null empties it; name and
	// qualification_rules cannot be null.
	shape.Nulls
}

// TierQualificationInput is a tier's qualification: POINTS with min_value
// (and an optional max_value ≥ min_value), or SEGMENT with a segment.
type TierQualificationInput struct {
	Type     *string          `json:"type"`
	MinValue *int64           `json:"min_value"`
	MaxValue *int64           `json:"max_value"`
	Segment  *jsonfield.IDRef `json:"segment"`
}

// TierDowngradeInput is a tier's downgrade: INHERIT or NO_DOWNGRADE.
type TierDowngradeInput struct {
	Type *string `json:"type"`
}

// AssignmentBatchInput is the body of POST …/programs/{id}/card-definitions/batch,
// …/earning-rules/batch and …/tier-structures/batch: ids to assign and to
// unassign, applied all or nothing.
type AssignmentBatchInput struct {
	Assign   []*jsonfield.IDRef `json:"assign"`
	Unassign []*jsonfield.IDRef `json:"unassign"`
}

// AssignmentBatchResult lists the ids a batch assigned and unassigned
// (null for a side the request did not have).
type AssignmentBatchResult struct {
	Assigned   []string
	Unassigned []string
}

// ProgramRewardsBatchInput is the body of POST …/programs/{id}/rewards/batch.
type ProgramRewardsBatchInput struct {
	Assign   []*ProgramRewardInput `json:"assign"`
	Unassign []*jsonfield.IDRef    `json:"unassign"`
}

// ProgramRewardInput assigns a reward to a program with its price and stock
// (also the body of PUT …/programs/{id}/rewards/{rewardId}, without id).
type ProgramRewardInput struct {
	ID    *string            `json:"id"`
	Costs []*RewardCostInput `json:"costs"`
	Stock *int64             `json:"stock"`
	// Nulls are the members an update sent as an explicit null: costs and
	// stock are required, so a null on either is refused.
	shape.Nulls
}

// RewardCostInput is one cost of a reward: the points spent on one card
// definition (spending has exactly one item), with optional rules.
type RewardCostInput struct {
	Rules    map[string]any         `json:"rules"`
	Spending []*RewardSpendingInput `json:"spending"`
}

// RewardSpendingInput is the points a reward costs on a card definition.
type RewardSpendingInput struct {
	Points           *int64  `json:"points"`
	CardDefinitionID *string `json:"card_definition_id"`
}

// ProgramRewardsBatchResult is what a rewards batch assigned and unassigned.
type ProgramRewardsBatchResult struct {
	Assigned   []*ent.ProgramReward
	Unassigned []*ent.ProgramReward
}

// PurchaseRewardInput is the body of POST …/members/{memberId}/rewards/purchases.
type PurchaseRewardInput struct {
	RewardID *string `json:"reward_id"`
}

// RefundRewardPurchaseInput is the optional body of POST
// …/rewards/purchases/{id}/refund (only the DEFAULT policies exist).
type RefundRewardPurchaseInput struct {
	Refund *string `json:"refund"`
	Stock  *string `json:"stock"`
}

// RewardPurchaseResult is the outcome of a purchase or a refund: the reward
// transaction and the card transaction that moved the points.
type RewardPurchaseResult struct {
	Status      string
	Message     string
	Purchase    *ent.RewardPurchase
	Transaction *ent.CardTransaction
}

// PageInput is a keyset page of a v2 list: at most Limit rows after the row
// whose id is After (nil: from the start), newest first unless Asc.
type PageInput struct {
	Limit int     `json:"limit"`
	Asc   bool    `json:"asc"`
	After *string `json:"after"`
}

// TierStructurePage is a page of tier structures.
type TierStructurePage struct {
	Data    []*ent.TierStructure
	HasMore bool
}

// TierPage is a page of a structure's tiers.
type TierPage struct {
	Data    []*ent.StructureTier
	HasMore bool
}

// LoyaltyActivityPage is a page of a resource's activities.
type LoyaltyActivityPage struct {
	Data    []*ent.LoyaltyActivity
	HasMore bool
}

// RewardPurchasePage is a page of a member's reward transactions.
type RewardPurchasePage struct {
	Data    []*ent.RewardPurchase
	HasMore bool
}

// TierTransactionPage is a page of a member's tier transactions.
type TierTransactionPage struct {
	Data    []*ent.TierTransaction
	HasMore bool
}

// ProgramRewardPage is a page of a program's reward assignments.
type ProgramRewardPage struct {
	Data    []*ent.ProgramReward
	HasMore bool
}

// MemberTier is a member's place in one of its program's tier structures:
// the points that count for the structure and the tier they fall in (nil
// below the lowest tier).
type MemberTier struct {
	TierStructure *ent.TierStructure
	Tier          *ent.StructureTier
	Points        int64
}
