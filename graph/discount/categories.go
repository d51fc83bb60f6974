package discount

import (
	"fmt"
	"slices"
)

// Keys of SKIPPED outcomes set by the category rules.
const (
	KeyPerCategoryLimitExceeded          = "applicable_redeemables_per_category_limit_exceeded"
	KeyExclusiveLimitExceeded            = "applicable_exclusive_redeemables_limit_exceeded"
	KeyExclusivePerCategoryLimitExceeded = "applicable_exclusive_redeemables_per_category_limit_exceeded"
	KeyExclusionRulesNotMet              = "exclusion_rules_not_met"
)

// validateCategories reports category limits out of range and a category
// named by two settings that contradict each other.
func (r Rules) validateCategories() error {
	for _, l := range []struct {
		name string
		v    int
		max  int
	}{{"applicable_redeemables_per_category_limit", r.PerCategoryLimit, 30},
		{"applicable_exclusive_redeemables_limit", r.ExclusiveLimit, 5},
		{"applicable_exclusive_redeemables_per_category_limit", r.ExclusivePerCategoryLimit, 5}} {
		if l.v != 0 && (l.v < 1 || l.v > l.max) {
			return fmt.Errorf("discount: stacking rules: %s must be between 1 and %d (got %d)", l.name, l.max, l.v)
		}
	}
	for cat, l := range r.CategoryLimits {
		if l < 1 || l > 30 {
			return fmt.Errorf("discount: stacking rules: applicable_redeemables_category_limits.%s must be between 1 and 30 (got %d)", cat, l)
		}
	}
	for _, both := range []struct {
		a, b   string
		la, lb []string
	}{{"exclusive_categories", "joint_categories", r.ExclusiveCategories, r.JointCategories},
		{"no_effect_skip_categories", "no_effect_redeem_anyway_categories", r.NoEffectSkipCategories, r.NoEffectRedeemAnywayCategories}} {
		for _, c := range both.la {
			if slices.Contains(both.lb, c) {
				return fmt.Errorf("discount: stacking rules: category %s is in both %s and %s", c, both.a, both.b)
			}
		}
	}
	return nil
}

// categoryLimit is how many redeemables of cat may be APPLICABLE.
func (r Rules) categoryLimit(cat string) int {
	if l, ok := r.CategoryLimits[cat]; ok && l > 0 {
		return l
	}
	return r.PerCategoryLimit
}

// exclusive reports whether c belongs to an exclusive category.
func (r Rules) exclusive(c Candidate) bool {
	return c.Category != "" && slices.Contains(r.ExclusiveCategories, c.Category)
}

// joint reports whether c belongs to a joint category.
func (r Rules) joint(c Candidate) bool {
	return c.Category != "" && slices.Contains(r.JointCategories, c.Category)
}

// skipsNoEffect reports whether c is SKIPPED when its discount has no
// effect: its category's override, else the project's rule.
func (r Rules) skipsNoEffect(c Candidate) bool {
	switch {
	case c.Category != "" && slices.Contains(r.NoEffectSkipCategories, c.Category):
		return true
	case c.Category != "" && slices.Contains(r.NoEffectRedeemAnywayCategories, c.Category):
		return false
	}
	return r.NoEffect == NoEffectSkip
}

// mayExclude reports whether some candidate of an exclusive category has
// no known failure, so exclusion may apply to the request.
func (r Rules) mayExclude(cs []Candidate) bool {
	return slices.ContainsFunc(cs, func(c Candidate) bool { return c.Failure == "" && r.exclusive(c) })
}

// categoryCounts counts the APPLICABLE candidates of one Stack pass.
type categoryCounts struct {
	perCategory, exclusivePerCategory map[string]int
	exclusive                         int
}

func newCategoryCounts() *categoryCounts {
	return &categoryCounts{perCategory: map[string]int{}, exclusivePerCategory: map[string]int{}}
}

// skip is the key c is SKIPPED with under the category rules before its
// discount is applied ("" when none applies). With excluding set (an
// exclusive redeemable is applied in this request), a candidate neither
// exclusive nor joint is SKIPPED "exclusion_rules_not_met". An exclusive
// candidate is limited by ExclusiveLimit and ExclusivePerCategoryLimit
// instead of its category's limit; any other categorized one by its
// category's limit.
func (k *categoryCounts) skip(r Rules, c Candidate, excluding bool) string {
	exclusive := r.exclusive(c)
	switch {
	case excluding && !exclusive && !r.joint(c):
		return KeyExclusionRulesNotMet
	case exclusive && k.exclusive >= r.ExclusiveLimit:
		return KeyExclusiveLimitExceeded
	case exclusive && k.exclusivePerCategory[c.Category] >= r.ExclusivePerCategoryLimit:
		return KeyExclusivePerCategoryLimitExceeded
	case !exclusive && c.Category != "" && k.perCategory[c.Category] >= r.categoryLimit(c.Category):
		return KeyPerCategoryLimitExceeded
	}
	return ""
}

// count records c as APPLICABLE.
func (k *categoryCounts) count(r Rules, c Candidate) {
	switch {
	case r.exclusive(c):
		k.exclusive++
		k.exclusivePerCategory[c.Category]++
	case c.Category != "":
		k.perCategory[c.Category]++
	}
}
