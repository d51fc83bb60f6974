package validationrules

import (
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// ValidationRuleInput creates or replaces a validation rule (REST shape).
type ValidationRuleInput struct {
	Name         *string        `json:"name"`
	Type         *string        `json:"type"`
	ContextType  *string        `json:"context_type"`
	Rules        map[string]any `json:"rules"`
	Error        map[string]any `json:"error"`
	ApplicableTo map[string]any `json:"applicable_to"`
	// BundleRules is bundle_rules (validationrule.ParseBundleRules).
	BundleRules map[string]any `json:"bundle_rules"`
	// Nulls are the members an update sent as an explicit null: rules
	// become empty, error, applicable_to and bundle_rules are cleared; name, type and
	// context_type cannot be null.
	shape.Nulls
}

// RuleAssignmentInput names what a rule is assigned to.
type RuleAssignmentInput struct {
	Voucher  *string `json:"voucher"`
	Campaign *string `json:"campaign"`
	// PromotionTier is a promo_… id (docs/promotions.md).
	PromotionTier *string `json:"promotion_tier"`
	// RelatedObjectType and RelatedObjectID are the reference's form of
	// the same (voucher, campaign or promotion_tier); REST only.
	RelatedObjectType *string `json:"related_object_type"`
	RelatedObjectID   *string `json:"related_object_id"`
}
