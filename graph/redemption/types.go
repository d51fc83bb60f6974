package redemption

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/customer"
)

// The request and response types of validation and redemption. JSON tags
// are the REST (Voucherify) names, so REST decodes requests into these very
// structs and encodes responses from them; GraphQL binds the same structs
// (field names match case-insensitively).

// StackedRedemptionInput is the body of POST /v1/validations and
// POST /v1/redemptions.
type StackedRedemptionInput struct {
	Redeemables []*RedeemableInput      `json:"redeemables"`
	Order       *OrderInput             `json:"order"`
	Customer    *customer.CustomerInput `json:"customer"`
	Session     *SessionInput           `json:"session"`
	TrackingID  *string                 `json:"tracking_id"`
	Metadata    map[string]any          `json:"metadata"`
	Options     *RedemptionOptionsInput `json:"options"`
}

// VoucherRedemptionInput is the body of the legacy single-code calls.
type VoucherRedemptionInput struct {
	Customer   *customer.CustomerInput `json:"customer"`
	Order      *OrderInput             `json:"order"`
	Gift       *GiftCreditsInput       `json:"gift"`
	Reward     *RewardRedeemInput      `json:"reward"`
	Session    *SessionInput           `json:"session"`
	TrackingID *string                 `json:"tracking_id"`
	Metadata   map[string]any          `json:"metadata"`
}

// RedeemableInput names one code of a stacked request.
type RedeemableInput struct {
	Object *string            `json:"object"`
	ID     string             `json:"id"`
	Gift   *GiftCreditsInput  `json:"gift"`
	Reward *RewardRedeemInput `json:"reward"`
}

// GiftCreditsInput is how many gift card credits to spend.
type GiftCreditsInput struct {
	Credits *int64 `json:"credits"`
}

// RewardRedeemInput names the loyalty reward and the points spent on it.
type RewardRedeemInput struct {
	ID     *string `json:"id"`
	Points *int64  `json:"points"`
}

// OrderInput is the order a request is made for.
type OrderInput struct {
	ID       *string           `json:"id"`
	SourceID *string           `json:"source_id"`
	Status   *string           `json:"status"`
	Amount   *int64            `json:"amount"`
	Items    []*OrderItemInput `json:"items"`
	Metadata map[string]any    `json:"metadata"`
}

// OrderItemInput is one order line.
type OrderItemInput struct {
	ProductID     *string        `json:"product_id"`
	SkuID         *string        `json:"sku_id"`
	SourceID      *string        `json:"source_id"`
	RelatedObject *string        `json:"related_object"`
	Quantity      *Quantity      `json:"quantity"`
	Price         *int64         `json:"price"`
	Amount        *int64         `json:"amount"`
	Product       map[string]any `json:"product"`
	Sku           map[string]any `json:"sku"`
	Metadata      map[string]any `json:"metadata"`
}

// Quantity is an item quantity. The real service's clients send it as a
// number or as a string of digits ("quantity": "1"); both are accepted.
type Quantity int64

// UnmarshalJSON accepts a JSON integer or a string holding one.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: typeOfInt64}
	}
	*q = Quantity(n)
	return nil
}

var typeOfInt64 = reflect.TypeOf(int64(0))

// SessionInput asks for (validation) or names (redemption) a session lock.
type SessionInput struct {
	Key     *string `json:"key"`
	Type    *string `json:"type"`
	TTL     *int64  `json:"ttl"`
	TTLUnit *string `json:"ttl_unit"`
}

// RedemptionOptionsInput holds the request's options.
type RedemptionOptionsInput struct {
	Expand []string `json:"expand"`
}

// RedeemableResult is one redeemable's outcome in a validation or redemption.
type RedeemableResult struct {
	Status         string         `json:"status"`
	ID             string         `json:"id"`
	Object         string         `json:"object"`
	Order          any            `json:"order,omitempty"`
	ApplicableTo   any            `json:"applicable_to,omitempty"`
	InapplicableTo any            `json:"inapplicable_to,omitempty"`
	Result         any            `json:"result"`
	Metadata       map[string]any `json:"metadata,omitempty"`
	Categories     any            `json:"categories,omitempty"` // APPLICABLE and INAPPLICABLE vouchers: their category objects ([] without one)
	CampaignID     *string        `json:"campaign_id,omitempty"`
	CampaignName   *string        `json:"campaign_name,omitempty"`
}

// ValidationResult is the response of POST /v1/validations.
type ValidationResult struct {
	ID                      string              `json:"id"`
	Valid                   bool                `json:"valid"`
	Redeemables             []*RedeemableResult `json:"redeemables"`
	InapplicableRedeemables []*RedeemableResult `json:"inapplicable_redeemables,omitempty"`
	SkippedRedeemables      []*RedeemableResult `json:"skipped_redeemables,omitempty"`
	Order                   any                 `json:"order,omitempty"`
	TrackingID              *string             `json:"tracking_id,omitempty"`
	Session                 any                 `json:"session,omitempty"`
	StackingRules           any                 `json:"stacking_rules"`
}

// VoucherValidationResult is the legacy single-code validation: Body is
// the whole REST response object.
type VoucherValidationResult struct {
	Valid bool   `json:"valid"`
	Code  string `json:"code"`
	Body  any    `json:"-"`
}

// RedemptionFailure is why nothing was redeemed: the REST error object.
type RedemptionFailure struct {
	Code         int     `json:"code"`
	Key          string  `json:"key"`
	Message      string  `json:"message"`
	Details      *string `json:"details,omitempty"`
	ResourceID   *string `json:"resource_id,omitempty"`
	ResourceType *string `json:"resource_type,omitempty"`
	// Error carries the validation rule's custom error.message, when the
	// failure is a rule's and the rule sets one; Message stays the
	// system's text, as the real service shows them.
	Error *CustomErrorMessage `json:"error,omitempty"`
}

// CustomErrorMessage is the error member of a failure: the message a
// validation rule set for its violations.
type CustomErrorMessage struct {
	Message string `json:"message"`
}

// StackedRedemptionResult is the outcome of POST /v1/redemptions.
type StackedRedemptionResult struct {
	ParentRedemption        *ent.Redemption     `json:"-"`
	Redemptions             []*ent.Redemption   `json:"-"`
	Order                   any                 `json:"-"`
	InapplicableRedeemables []*RedeemableResult `json:"-"`
	SkippedRedeemables      []*RedeemableResult `json:"-"`
	Failure                 *RedemptionFailure  `json:"-"`
}

// VoucherRedemptionResult is the outcome of the legacy single redemption.
type VoucherRedemptionResult struct {
	Redemption *ent.Redemption    `json:"-"`
	Failure    *RedemptionFailure `json:"-"`
}

// failureOf builds a failure from an error key and the voucher code.
func failureOf(key, message, details, resourceID string) *RedemptionFailure {
	f := &RedemptionFailure{Code: 400, Key: key, Message: message}
	if details != "" {
		f.Details = &details
	}
	if resourceID != "" {
		rt := "redemption"
		f.ResourceID, f.ResourceType = &resourceID, &rt
	}
	return f
}

// SetItemQuantity binds GraphQL's Int quantity to the item's Quantity.
func SetItemQuantity(in *OrderItemInput, n *int) error {
	if n != nil {
		q := Quantity(*n)
		in.Quantity = &q
	}
	return nil
}
