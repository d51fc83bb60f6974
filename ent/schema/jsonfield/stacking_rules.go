package jsonfield

import "time"

// StackingRules are the stacking rules a project set through the
// management API (…/stacking-rules): the settings the redemption engine
// applies. Without them a project uses the defaults (graph/discount).
type StackingRules struct {
	ID                         string `json:"id"`
	RedeemablesLimit           int    `json:"redeemables_limit"`
	ApplicableRedeemablesLimit int    `json:"applicable_redeemables_limit"`
	RedeemablesApplicationMode string `json:"redeemables_application_mode"`
	RedeemablesSortingRule     string `json:"redeemables_sorting_rule"`
	RedeemablesNoEffectRule    string `json:"redeemables_no_effect_rule"`
	// RedeemablesProductsApplicationMode is STACK ("" too) or ONCE.
	RedeemablesProductsApplicationMode string `json:"redeemables_products_application_mode,omitempty"`
	// Category settings; a zero limit means the default (see graph/discount).
	ApplicableRedeemablesPerCategoryLimit          int            `json:"applicable_redeemables_per_category_limit,omitempty"`
	ApplicableRedeemablesCategoryLimits            map[string]int `json:"applicable_redeemables_category_limits,omitempty"`
	ApplicableExclusiveRedeemablesLimit            int            `json:"applicable_exclusive_redeemables_limit,omitempty"`
	ApplicableExclusiveRedeemablesPerCategoryLimit int            `json:"applicable_exclusive_redeemables_per_category_limit,omitempty"`
	ExclusiveCategories                            []string       `json:"exclusive_categories,omitempty"`
	JointCategories                                []string       `json:"joint_categories,omitempty"`
	NoEffectSkipCategories                         []string       `json:"no_effect_skip_categories,omitempty"`
	NoEffectRedeemAnywayCategories                 []string       `json:"no_effect_redeem_anyway_categories,omitempty"`
	CreatedAt                                      time.Time      `json:"created_at"`
	UpdatedAt                                      *time.Time     `json:"updated_at,omitempty"`
}
