package reward

import "github.com/promoengine/promoengine/graph/internal/shape"

// Reward types of the v1 API.
const (
	TypeCampaign = "CAMPAIGN"
	TypeCoin     = "COIN"
	TypeMaterial = "MATERIAL"
)

// Campaign kinds a CAMPAIGN reward issues from (its parameters.campaign.type).
const (
	CampaignDiscountCoupons = "DISCOUNT_COUPONS"
	CampaignGiftVouchers    = "GIFT_VOUCHERS"
	CampaignLoyaltyProgram  = "LOYALTY_PROGRAM"
)

// Limits of a reward's numbers.
const (
	maxStock   = 1_000_000_000
	maxPoints  = 1_000_000_000
	maxBalance = 1_000_000_000_000
	maxNameLen = 200
)

// RewardInput creates (REST POST /v1/rewards) or changes (PUT
// /v1/rewards/{rewardId}) a reward. On update a field left out stays; the
// type cannot change.
type RewardInput struct {
	Name       *string                `json:"name"`
	Type       *string                `json:"type"`
	Parameters *RewardParametersInput `json:"parameters"`
	// Stock caps the units of a MATERIAL reward (null: unlimited).
	Stock      *int64                 `json:"stock"`
	Attributes *RewardAttributesInput `json:"attributes"`
	Metadata   map[string]any         `json:"metadata"`
	// Nulls are the members an update sent as an explicit null: stock
	// (unlimited), metadata, attributes and attributes.* are cleared;
	// name, type and parameters cannot be null.
	shape.Nulls
}

// RewardParametersInput names what the reward gives: exactly one of
// Campaign, Coin or Product.
type RewardParametersInput struct {
	Campaign *RewardCampaignInput `json:"campaign"`
	Coin     *RewardCoinInput     `json:"coin"`
	Product  *RewardProductInput  `json:"product"`
}

// RewardCampaignInput is a CAMPAIGN reward's source: a discount coupon
// campaign (no balance), a gift card campaign (balance: credits in cents)
// or a loyalty campaign (balance: points).
type RewardCampaignInput struct {
	ID      *string `json:"id"`
	Balance *int64  `json:"balance"`
}

// RewardCoinInput is a COIN reward's rate: PointsRatio points are worth
// ExchangeRatio major currency units.
type RewardCoinInput struct {
	ExchangeRatio *float64 `json:"exchange_ratio"`
	PointsRatio   *int64   `json:"points_ratio"`
}

// RewardProductInput is a MATERIAL reward's product (id or source_id) and
// optional SKU.
type RewardProductInput struct {
	ID    *string `json:"id"`
	SkuID *string `json:"sku_id"`
}

// RewardAttributesInput are a reward's display attributes.
type RewardAttributesInput struct {
	ImageURL    *string `json:"image_url"`
	Description *string `json:"description"`
}

// AssignmentInput creates or changes a reward assignment: the campaign
// (on create) and the price in points (parameters.loyalty.points, none
// for COIN rewards, which may name one validation rule instead).
type AssignmentInput struct {
	Campaign        *string                    `json:"campaign"`
	Reward          *string                    `json:"reward"`
	Parameters      *AssignmentParametersInput `json:"parameters"`
	ValidationRules []string                   `json:"validation_rules"`
	// Nulls are the members an update sent as an explicit null:
	// validation_rules clears the rules; the price in points and
	// auto_redeem are required (a null is refused).
	shape.Nulls
}

// AssignmentParametersInput holds the loyalty parameters of an assignment.
type AssignmentParametersInput struct {
	Loyalty *AssignmentLoyaltyInput `json:"loyalty"`
}

// AssignmentLoyaltyInput is the price of a reward in points and whether it
// is redeemed automatically.
type AssignmentLoyaltyInput struct {
	Points     *int64 `json:"points"`
	AutoRedeem *bool  `json:"auto_redeem"`
}

// ListInput pages a v1 list: limit 1-100 (default 10), page 1-99.
type ListInput struct {
	Limit *int `json:"limit"`
	Page  *int `json:"page"`
	// AssignmentID keeps only the reward (or assignment) of that assignment.
	AssignmentID *string `json:"assignment_id"`
}
