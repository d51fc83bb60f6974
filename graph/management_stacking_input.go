package graph

import (
	"context"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
)

// StackingRulesInput creates or changes stacking rules; nil leaves a
// setting as it is (or at its default on create).
type StackingRulesInput struct {
	ExclusiveCategories                            []string       `json:"exclusive_categories"`
	JointCategories                                []string       `json:"joint_categories"`
	RedeemablesLimit                               *int           `json:"redeemables_limit"`
	ApplicableRedeemablesLimit                     *int           `json:"applicable_redeemables_limit"`
	ApplicableRedeemablesPerCategoryLimit          *int           `json:"applicable_redeemables_per_category_limit"`
	ApplicableRedeemablesCategoryLimits            map[string]any `json:"applicable_redeemables_category_limits"`
	ApplicableExclusiveRedeemablesLimit            *int           `json:"applicable_exclusive_redeemables_limit"`
	ApplicableExclusiveRedeemablesPerCategoryLimit *int           `json:"applicable_exclusive_redeemables_per_category_limit"`
	DiscountCalculationMode                        *string        `json:"discount_calculation_mode"`
	InitialAmountModeCategories                    []string       `json:"initial_amount_mode_categories"`
	DiscountedAmountModeCategories                 []string       `json:"discounted_amount_mode_categories"`
	RedeemablesApplicationMode                     *string        `json:"redeemables_application_mode"`
	RedeemablesSortingRule                         *string        `json:"redeemables_sorting_rule"`
	RedeemablesProductsApplicationMode             *string        `json:"redeemables_products_application_mode"`
	RedeemablesNoEffectRule                        *string        `json:"redeemables_no_effect_rule"`
	NoEffectSkipCategories                         []string       `json:"no_effect_skip_categories"`
	NoEffectRedeemAnywayCategories                 []string       `json:"no_effect_redeem_anyway_categories"`
	RedeemablesRollbackOrderMode                   *string        `json:"redeemables_rollback_order_mode"`
}

// apply checks in and returns s with what in sets.
func (in StackingRulesInput) apply(s jsonfield.StackingRules) (jsonfield.StackingRules, error) {
	if err := in.checkFixed(); err != nil {
		return s, err
	}
	for _, l := range []struct {
		field string
		v     *int
		dst   *int
	}{{"redeemables_limit", in.RedeemablesLimit, &s.RedeemablesLimit},
		{"applicable_redeemables_limit", in.ApplicableRedeemablesLimit, &s.ApplicableRedeemablesLimit}} {
		if l.v == nil {
			continue
		}
		if *l.v < 1 || *l.v > 30 {
			return s, apperr.InvalidPayload("Property .%s must be between 1 and 30, got %d", l.field, *l.v)
		}
		*l.dst = *l.v
	}
	if s.ApplicableRedeemablesLimit > s.RedeemablesLimit {
		return s, apperr.InvalidPayload("Property .applicable_redeemables_limit (%d) must be at most redeemables_limit (%d)",
			s.ApplicableRedeemablesLimit, s.RedeemablesLimit)
	}
	for _, e := range []struct {
		field   string
		v       *string
		dst     *string
		allowed []string
	}{
		{"redeemables_application_mode", in.RedeemablesApplicationMode, &s.RedeemablesApplicationMode,
			[]string{string(discount.ModeAll), string(discount.ModePartial)}},
		{"redeemables_sorting_rule", in.RedeemablesSortingRule, &s.RedeemablesSortingRule,
			[]string{string(discount.SortingRequestedOrder), string(discount.SortingCategoryHierarchy)}},
		{"redeemables_no_effect_rule", in.RedeemablesNoEffectRule, &s.RedeemablesNoEffectRule,
			[]string{string(discount.NoEffectRedeemAnyway), string(discount.NoEffectSkip)}},
	} {
		if err := requireOneOf(e.field, e.v, e.allowed...); err != nil {
			return s, err
		}
		if e.v != nil {
			*e.dst = *e.v
		}
	}
	return s, nil
}

// checkFixed refuses category settings other than the engine's (see
// stackingRulesOf): promoengine does not apply them, so it does not store them.
func (in StackingRulesInput) checkFixed() error {
	unsupported := func(field string) error {
		return apperr.InvalidPayload("Property .%s: only the value shown by GET …/stacking-rules is supported", field)
	}
	for field, list := range map[string][]string{
		"exclusive_categories": in.ExclusiveCategories, "joint_categories": in.JointCategories,
		"initial_amount_mode_categories": in.InitialAmountModeCategories, "discounted_amount_mode_categories": in.DiscountedAmountModeCategories,
		"no_effect_skip_categories": in.NoEffectSkipCategories, "no_effect_redeem_anyway_categories": in.NoEffectRedeemAnywayCategories,
	} {
		if len(list) > 0 {
			return unsupported(field)
		}
	}
	if len(in.ApplicableRedeemablesCategoryLimits) > 0 {
		return unsupported("applicable_redeemables_category_limits")
	}
	for field, v := range map[string]*int{
		"applicable_redeemables_per_category_limit":           in.ApplicableRedeemablesPerCategoryLimit,
		"applicable_exclusive_redeemables_limit":              in.ApplicableExclusiveRedeemablesLimit,
		"applicable_exclusive_redeemables_per_category_limit": in.ApplicableExclusiveRedeemablesPerCategoryLimit,
	} {
		if v != nil && *v != 1 {
			return unsupported(field)
		}
	}
	for field, v := range map[string]struct {
		got  *string
		want string
	}{
		"discount_calculation_mode":             {in.DiscountCalculationMode, "DISCOUNTED_AMOUNT"},
		"redeemables_products_application_mode": {in.RedeemablesProductsApplicationMode, "STACK"},
		"redeemables_rollback_order_mode":       {in.RedeemablesRollbackOrderMode, "WITH_ORDER"},
	} {
		if v.got != nil && *v.got != v.want {
			return unsupported(field)
		}
	}
	return nil
}

func managementStackingRulesList(ctx context.Context, projectID string) ([]*StackingRules, error) {
	return inManagedProject(ctx, projectID, StackingRulesList)
}

func managementStackingRules(ctx context.Context, projectID, id string) (*StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*StackingRules, error) { return StackingRulesByID(ctx, id) })
}

func createManagementStackingRules(ctx context.Context, projectID string, in StackingRulesInput) (*StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*StackingRules, error) { return CreateStackingRules(ctx, in) })
}

func updateManagementStackingRules(ctx context.Context, projectID, id string, in StackingRulesInput) (*StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*StackingRules, error) { return UpdateStackingRules(ctx, id, in) })
}

func deleteManagementStackingRules(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) { return id, DeleteStackingRules(ctx, id) })
}
