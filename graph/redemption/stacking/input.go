package stacking

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/store"
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

// apply checks in and returns s with what in sets. The category IDs it
// names must be categories of the viewer's project (404 otherwise).
func (in StackingRulesInput) apply(ctx context.Context, s jsonfield.StackingRules) (jsonfield.StackingRules, error) {
	if err := in.checkFixed(); err != nil {
		return s, err
	}
	for _, l := range []struct {
		field string
		v     *int
		dst   *int
		max   int
	}{{"redeemables_limit", in.RedeemablesLimit, &s.RedeemablesLimit, 30},
		{"applicable_redeemables_limit", in.ApplicableRedeemablesLimit, &s.ApplicableRedeemablesLimit, 30},
		{"applicable_redeemables_per_category_limit", in.ApplicableRedeemablesPerCategoryLimit, &s.ApplicableRedeemablesPerCategoryLimit, 30},
		{"applicable_exclusive_redeemables_limit", in.ApplicableExclusiveRedeemablesLimit, &s.ApplicableExclusiveRedeemablesLimit, 5},
		{"applicable_exclusive_redeemables_per_category_limit", in.ApplicableExclusiveRedeemablesPerCategoryLimit,
			&s.ApplicableExclusiveRedeemablesPerCategoryLimit, 5}} {
		if l.v == nil {
			continue
		}
		if *l.v < 1 || *l.v > l.max {
			return s, apperr.InvalidPayload("Property .%s must be between 1 and %d, got %d", l.field, l.max, *l.v)
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
		{"redeemables_products_application_mode", in.RedeemablesProductsApplicationMode, &s.RedeemablesProductsApplicationMode,
			[]string{discount.ProductsStack, discount.ProductsOnce}},
	} {
		if err := requireOneOf(e.field, e.v, e.allowed...); err != nil {
			return s, err
		}
		if e.v != nil {
			*e.dst = *e.v
		}
	}
	if err := in.applyCategories(&s); err != nil {
		return s, err
	}
	if err := rulesOf(&s).Validate(); err != nil {
		return s, apperr.InvalidPayload("%s", strings.TrimPrefix(err.Error(), "discount: stacking rules: "))
	}
	return s, requireCategories(ctx, s)
}

// applyCategories copies the category lists and limits in gives to s.
func (in StackingRulesInput) applyCategories(s *jsonfield.StackingRules) error {
	for _, l := range []struct {
		v   []string
		dst *[]string
	}{{in.ExclusiveCategories, &s.ExclusiveCategories}, {in.JointCategories, &s.JointCategories},
		{in.NoEffectSkipCategories, &s.NoEffectSkipCategories}, {in.NoEffectRedeemAnywayCategories, &s.NoEffectRedeemAnywayCategories}} {
		if l.v != nil {
			*l.dst = slices.Compact(slices.Sorted(slices.Values(l.v)))
		}
	}
	if in.ApplicableRedeemablesCategoryLimits == nil {
		return nil
	}
	limits := make(map[string]int, len(in.ApplicableRedeemablesCategoryLimits))
	for id, raw := range in.ApplicableRedeemablesCategoryLimits {
		n, ok := wholeNumber(raw)
		if !ok || n < 1 || n > 30 {
			return apperr.InvalidPayload("Property .applicable_redeemables_category_limits.%s must be an integer between 1 and 30, got %v", id, raw)
		}
		limits[id] = int(n)
	}
	s.ApplicableRedeemablesCategoryLimits = limits
	return nil
}

// wholeNumber reads a JSON or GraphQL number that is a whole number.
func wholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), n == math.Trunc(n) && math.Abs(n) < 1e15
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// requireCategories answers 404 for the first category ID the rules name
// that is not a category of the viewer's project.
func requireCategories(ctx context.Context, s jsonfield.StackingRules) error {
	ids := stackingCategoryIDs(s)
	if len(ids) == 0 {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	found, err := c.Category.Query().Where(category.IDIn(ids...)).IDs(ctx)
	if err != nil {
		return fmt.Errorf("looking up the stacking rules' categories: %w", err)
	}
	for _, id := range ids {
		if !slices.Contains(found, id) {
			return apperr.NotFound("category", id)
		}
	}
	return nil
}

// stackingCategoryIDs lists, sorted and once each, the categories s names.
func stackingCategoryIDs(s jsonfield.StackingRules) []string {
	ids := slices.Concat(s.ExclusiveCategories, s.JointCategories, s.NoEffectSkipCategories, s.NoEffectRedeemAnywayCategories)
	for id := range s.ApplicableRedeemablesCategoryLimits {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// checkFixed refuses settings other than the engine's (see
// stackingRulesOf): promoengine does not apply them, so it does not store them.
func (in StackingRulesInput) checkFixed() error {
	unsupported := func(field string) error {
		return apperr.InvalidPayload("Property .%s: only the value shown by GET …/stacking-rules is supported", field)
	}
	for field, list := range map[string][]string{
		"initial_amount_mode_categories": in.InitialAmountModeCategories, "discounted_amount_mode_categories": in.DiscountedAmountModeCategories,
	} {
		if len(list) > 0 {
			return unsupported(field)
		}
	}
	for field, v := range map[string]struct {
		got  *string
		want string
	}{
		"discount_calculation_mode":       {in.DiscountCalculationMode, "DISCOUNTED_AMOUNT"},
		"redeemables_rollback_order_mode": {in.RedeemablesRollbackOrderMode, "WITH_ORDER"},
	} {
		if v.got != nil && *v.got != v.want {
			return unsupported(field)
		}
	}
	return nil
}
