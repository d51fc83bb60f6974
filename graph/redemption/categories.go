package redemption

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
)

// A redeemable's category in the stacking rules: its voucher's own
// category, else its campaign's (one per redeemable).

// redeemableCategoryID is the category a voucher stacks in ("" none): its
// own, else its campaign's (the campaign edge as lookupVouchers loads it).
func redeemableCategoryID(v *ent.Voucher) string {
	switch {
	case v == nil:
		return ""
	case v.CategoryID != nil:
		return *v.CategoryID
	case v.Edges.Campaign != nil && v.Edges.Campaign.CategoryID != nil:
		return *v.Edges.Campaign.CategoryID
	}
	return ""
}

// loadCategories reads the category of each found voucher (see
// redeemableCategoryID) in one query, none when no voucher has one.
func (e *evaluation) loadCategories(ctx context.Context) error {
	var ids []string
	for _, s := range e.states {
		if id := s.categoryID(); id != "" && !s.fromSnapshot {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	byID, err := campaign.CategoriesByID(ctx, ids)
	if err != nil {
		return fmt.Errorf("reading the redeemables' categories: %w", err)
	}
	for _, s := range e.states {
		if !s.fromSnapshot {
			s.category = byID[s.categoryID()]
		}
	}
	return nil
}

// categoryView is the category object of a redeemable's categories;
// updated_at is left out until the category is first updated, and
// stacking_rules_type is EXCLUSIVE or JOINT when the stacking rules name
// the category among their exclusive_categories or joint_categories
// (absent otherwise; reference CategoryWithStackingRulesType).
func categoryView(cat *ent.Category, rules discount.Rules) map[string]any {
	v := map[string]any{"id": cat.ID, "name": cat.Name, "hierarchy": cat.Hierarchy,
		"created_at": clock.Format(cat.CreatedAt), "object": "category"}
	if cat.UpdatedAt != nil {
		v["updated_at"] = clock.Format(*cat.UpdatedAt)
	}
	switch {
	case slices.Contains(rules.ExclusiveCategories, cat.ID):
		v["stacking_rules_type"] = "EXCLUSIVE"
	case slices.Contains(rules.JointCategories, cat.ID):
		v["stacking_rules_type"] = "JOINT"
	}
	return v
}

// categoriesView is a redeemable's categories under the stacking rules:
// its category as a one-element list, or an empty one.
func (s *redeemableState) categoriesView(rules discount.Rules) []any {
	return categoriesOf(s.category, rules)
}

func categoriesOf(cat *ent.Category, rules discount.Rules) []any {
	if cat == nil {
		return []any{}
	}
	return []any{categoryView(cat, rules)}
}

// categoryID is the redeemable's category: the voucher's or tier's own,
// else its campaign's ("" for none).
func (s *redeemableState) categoryID() string {
	if t := s.tier; t != nil {
		return tiersnapshot.TierCategoryID(t)
	}
	return redeemableCategoryID(s.voucher)
}

// CategoriesView is the categories list of an object whose category is
// cat (nil: none), as a redeemable's shows it under the stacking rules
// the qualification ran with.
func (o *QualifyOutcome) CategoriesView(cat *ent.Category) []any {
	return categoriesOf(cat, o.rules)
}
