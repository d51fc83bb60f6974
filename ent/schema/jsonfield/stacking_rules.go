package jsonfield

import "time"

// StackingRules are the stacking rules a project set through the
// management API (…/stacking-rules): the settings the redemption engine
// applies. Without them a project uses the defaults (graph/discount).
type StackingRules struct {
	ID                         string     `json:"id"`
	RedeemablesLimit           int        `json:"redeemables_limit"`
	ApplicableRedeemablesLimit int        `json:"applicable_redeemables_limit"`
	RedeemablesApplicationMode string     `json:"redeemables_application_mode"`
	RedeemablesSortingRule     string     `json:"redeemables_sorting_rule"`
	RedeemablesNoEffectRule    string     `json:"redeemables_no_effect_rule"`
	CreatedAt                  time.Time  `json:"created_at"`
	UpdatedAt                  *time.Time `json:"updated_at,omitempty"`
}
