package stacking

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A project's stacking rules through the management API
// (…/stacking-rules). The redemption engine applies what it supports —
// the limits, the application mode, the sorting rule, the no-effect rule
// and the category settings (exclusive and joint categories, per-category
// limits, no-effect overrides) — from the project's rules, or the
// defaults (discount.DefaultRules) when it has none. The discount
// calculation mode, products application mode and rollback order mode
// have one value the engine implements; another value is refused rather
// than stored and ignored.

// stackingRulesType is the resource type of stacking rules.
const stackingRulesType = "stacking_rules"

// StackingRules are a project's stacking rules as the management API shows them.
type StackingRules struct {
	ID                                             string         `json:"id"`
	ExclusiveCategories                            []string       `json:"exclusive_categories"`
	JointCategories                                []string       `json:"joint_categories"`
	RedeemablesLimit                               int            `json:"redeemables_limit"`
	ApplicableRedeemablesLimit                     int            `json:"applicable_redeemables_limit"`
	ApplicableRedeemablesPerCategoryLimit          int            `json:"applicable_redeemables_per_category_limit"`
	ApplicableRedeemablesCategoryLimits            map[string]any `json:"applicable_redeemables_category_limits"`
	ApplicableExclusiveRedeemablesLimit            int            `json:"applicable_exclusive_redeemables_limit"`
	ApplicableExclusiveRedeemablesPerCategoryLimit int            `json:"applicable_exclusive_redeemables_per_category_limit"`
	DiscountCalculationMode                        string         `json:"discount_calculation_mode"`
	InitialAmountModeCategories                    []string       `json:"initial_amount_mode_categories"`
	DiscountedAmountModeCategories                 []string       `json:"discounted_amount_mode_categories"`
	RedeemablesApplicationMode                     string         `json:"redeemables_application_mode"`
	RedeemablesSortingRule                         string         `json:"redeemables_sorting_rule"`
	RedeemablesProductsApplicationMode             string         `json:"redeemables_products_application_mode"`
	RedeemablesNoEffectRule                        string         `json:"redeemables_no_effect_rule"`
	NoEffectSkipCategories                         []string       `json:"no_effect_skip_categories"`
	NoEffectRedeemAnywayCategories                 []string       `json:"no_effect_redeem_anyway_categories"`
	RedeemablesRollbackOrderMode                   string         `json:"redeemables_rollback_order_mode"`
	CreatedAt                                      time.Time      `json:"created_at"`
	UpdatedAt                                      *time.Time     `json:"updated_at"`
}

// stackingRulesOf shows stored rules: what the engine applies (see
// rulesOf), with the fixed settings it does not vary.
func stackingRulesOf(s *jsonfield.StackingRules) *StackingRules {
	r := rulesOf(s).WithDefaults()
	limits := map[string]any{}
	for id, l := range r.CategoryLimits {
		limits[id] = l
	}
	return &StackingRules{ID: s.ID, ExclusiveCategories: orEmpty(r.ExclusiveCategories), JointCategories: orEmpty(r.JointCategories),
		RedeemablesLimit: r.RedeemablesLimit, ApplicableRedeemablesLimit: r.ApplicableLimit,
		ApplicableRedeemablesPerCategoryLimit: r.PerCategoryLimit, ApplicableRedeemablesCategoryLimits: limits,
		ApplicableExclusiveRedeemablesLimit: r.ExclusiveLimit, ApplicableExclusiveRedeemablesPerCategoryLimit: r.ExclusivePerCategoryLimit,
		DiscountCalculationMode: "DISCOUNTED_AMOUNT", InitialAmountModeCategories: []string{}, DiscountedAmountModeCategories: []string{},
		RedeemablesApplicationMode: string(r.Mode), RedeemablesSortingRule: string(r.Sorting),
		RedeemablesProductsApplicationMode: r.ProductsMode(), RedeemablesNoEffectRule: string(r.NoEffect),
		NoEffectSkipCategories: orEmpty(r.NoEffectSkipCategories), NoEffectRedeemAnywayCategories: orEmpty(r.NoEffectRedeemAnywayCategories),
		RedeemablesRollbackOrderMode: "WITH_ORDER", CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

// rulesOf is the engine's view of stored rules (zero values: the defaults).
func rulesOf(s *jsonfield.StackingRules) discount.Rules {
	return discount.Rules{RedeemablesLimit: s.RedeemablesLimit, ApplicableLimit: s.ApplicableRedeemablesLimit,
		Mode: discount.Mode(s.RedeemablesApplicationMode), Sorting: discount.Sorting(s.RedeemablesSortingRule),
		NoEffect: discount.NoEffectRule(s.RedeemablesNoEffectRule), PerCategoryLimit: s.ApplicableRedeemablesPerCategoryLimit,
		CategoryLimits: s.ApplicableRedeemablesCategoryLimits, ExclusiveCategories: s.ExclusiveCategories,
		JointCategories: s.JointCategories, ExclusiveLimit: s.ApplicableExclusiveRedeemablesLimit,
		ExclusivePerCategoryLimit: s.ApplicableExclusiveRedeemablesPerCategoryLimit,
		NoEffectSkipCategories:    s.NoEffectSkipCategories, NoEffectRedeemAnywayCategories: s.NoEffectRedeemAnywayCategories,
		ProductsOnce: s.RedeemablesProductsApplicationMode == discount.ProductsOnce}
}

// orEmpty is list, or an empty list for nil (JSON [] rather than null).
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// RulesView is the stacking_rules object every validation echoes:
// the rules r the request was worked out with (defaults filled in).
func RulesView(r discount.Rules) map[string]any {
	limits := map[string]any{}
	for id, l := range r.CategoryLimits {
		limits[id] = l
	}
	return map[string]any{
		"redeemables_limit": r.RedeemablesLimit, "applicable_redeemables_limit": r.ApplicableLimit,
		"applicable_redeemables_per_category_limit": r.PerCategoryLimit, "applicable_redeemables_category_limits": limits,
		"applicable_exclusive_redeemables_limit":              r.ExclusiveLimit,
		"applicable_exclusive_redeemables_per_category_limit": r.ExclusivePerCategoryLimit,
		"exclusive_categories":                                orEmpty(r.ExclusiveCategories), "joint_categories": orEmpty(r.JointCategories),
		"redeemables_application_mode": string(r.Mode), "redeemables_sorting_rule": string(r.Sorting),
		"redeemables_products_application_mode": r.ProductsMode(), "redeemables_no_effect_rule": string(r.NoEffect),
		"no_effect_skip_categories": orEmpty(r.NoEffectSkipCategories), "no_effect_redeem_anyway_categories": orEmpty(r.NoEffectRedeemAnywayCategories),
		"redeemables_rollback_order_mode": "WITH_ORDER",
	}
}

// viewerProject reads the viewer's project, locked for a write (lockProject).
func viewerProject(ctx context.Context, lock bool) (*ent.Client, *ent.Project, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, nil, err
	}
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, nil, fmt.Errorf("stacking rules: no project in context")
	}
	if lock {
		if err := store.LockProject(ctx, c, v.ProjectID); err != nil {
			return nil, nil, err
		}
		forgetProjectRules(ctx, v.ProjectID) // a write follows
	}
	p, err := c.Project.Get(ctx, v.ProjectID)
	if err != nil {
		return nil, nil, fmt.Errorf("looking up project: %w", err)
	}
	return c, p, nil
}

// ProjectRules are the rules the redemption engine applies for the
// viewer's project: its own, or the defaults.
func ProjectRules(ctx context.Context) (discount.Rules, error) {
	s, err := storedStackingRules(ctx) // cache.go
	if err != nil {
		return discount.Rules{}, err
	}
	if s == nil {
		return discount.DefaultRules(), nil
	}
	return rulesOf(s).WithDefaults(), nil
}

// ForgetStackingCategory removes a deleted category from the project's
// stacking rules.
func ForgetStackingCategory(ctx context.Context, id string) error {
	c, p, err := viewerProject(ctx, true)
	if err != nil || p.StackingRules == nil || !slices.Contains(stackingCategoryIDs(*p.StackingRules), id) {
		return err
	}
	s := *p.StackingRules
	drop := func(list []string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(c string) bool { return c == id })
	}
	s.ExclusiveCategories, s.JointCategories = drop(s.ExclusiveCategories), drop(s.JointCategories)
	s.NoEffectSkipCategories, s.NoEffectRedeemAnywayCategories = drop(s.NoEffectSkipCategories), drop(s.NoEffectRedeemAnywayCategories)
	s.ApplicableRedeemablesCategoryLimits = maps.Clone(s.ApplicableRedeemablesCategoryLimits)
	delete(s.ApplicableRedeemablesCategoryLimits, id)
	if err := c.Project.UpdateOne(p).SetStackingRules(&s).Exec(ctx); err != nil {
		return fmt.Errorf("removing the category from the stacking rules: %w", err)
	}
	return nil
}

// StackingRulesList lists the viewer's project's stacking rules: none
// (the defaults apply) or one.
func StackingRulesList(ctx context.Context) ([]*StackingRules, error) {
	_, p, err := viewerProject(ctx, false)
	if err != nil {
		return nil, err
	}
	if p.StackingRules == nil {
		return []*StackingRules{}, nil
	}
	return []*StackingRules{stackingRulesOf(p.StackingRules)}, nil
}

// StackingRulesByID reads the project's stacking rules by their id.
func StackingRulesByID(ctx context.Context, id string) (*StackingRules, error) {
	_, p, err := viewerProject(ctx, false)
	if err != nil {
		return nil, err
	}
	if p.StackingRules == nil || p.StackingRules.ID != id {
		return nil, apperr.NotFound(stackingRulesType, id)
	}
	return stackingRulesOf(p.StackingRules), nil
}

// CreateStackingRules sets the project's stacking rules, from the defaults
// for what in leaves out; rules the project already has are 409 (update them).
func CreateStackingRules(ctx context.Context, in StackingRulesInput) (*StackingRules, error) {
	c, p, err := viewerProject(ctx, true)
	if err != nil {
		return nil, err
	}
	if p.StackingRules != nil {
		e := apperr.Duplicate(stackingRulesType, "The project has stacking rules already; update them instead")
		e.ResourceID = p.StackingRules.ID
		return nil, e
	}
	d := discount.DefaultRules()
	s, err := in.apply(ctx, jsonfield.StackingRules{ID: "stk_" + pulid.Hex(9), RedeemablesLimit: d.RedeemablesLimit,
		ApplicableRedeemablesLimit: d.ApplicableLimit, RedeemablesApplicationMode: string(d.Mode),
		RedeemablesSortingRule: string(d.Sorting), RedeemablesNoEffectRule: string(d.NoEffect), CreatedAt: clock.Now()})
	if err != nil {
		return nil, err
	}
	if err := c.Project.UpdateOne(p).SetStackingRules(&s).Exec(ctx); err != nil {
		return nil, fmt.Errorf("saving stacking rules: %w", err)
	}
	return stackingRulesOf(&s), nil
}

// UpdateStackingRules changes what in gives of the project's stacking rules.
func UpdateStackingRules(ctx context.Context, id string, in StackingRulesInput) (*StackingRules, error) {
	c, p, err := viewerProject(ctx, true)
	if err != nil {
		return nil, err
	}
	if p.StackingRules == nil || p.StackingRules.ID != id {
		return nil, apperr.NotFound(stackingRulesType, id)
	}
	s, err := in.apply(ctx, *p.StackingRules)
	if err != nil {
		return nil, err
	}
	now := clock.Now()
	s.UpdatedAt = &now
	if err := c.Project.UpdateOne(p).SetStackingRules(&s).Exec(ctx); err != nil {
		return nil, fmt.Errorf("saving stacking rules: %w", err)
	}
	return stackingRulesOf(&s), nil
}

// DeleteStackingRules removes the project's stacking rules: the defaults
// apply again.
func DeleteStackingRules(ctx context.Context, id string) error {
	c, p, err := viewerProject(ctx, true)
	if err != nil {
		return err
	}
	if p.StackingRules == nil || p.StackingRules.ID != id {
		return apperr.NotFound(stackingRulesType, id)
	}
	if err := c.Project.UpdateOne(p).ClearStackingRules().Exec(ctx); err != nil {
		return fmt.Errorf("deleting stacking rules: %w", err)
	}
	return nil
}

// requireOneOf refuses v when it is given and not one of allowed.
func requireOneOf(field string, v *string, allowed ...string) error {
	if v != nil && !slices.Contains(allowed, *v) {
		return apperr.InvalidPayload("Property .%s must be one of %v, got %q", field, allowed, *v)
	}
	return nil
}
