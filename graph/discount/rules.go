package discount

import (
	"fmt"
	"slices"
)

// Mode is the redeemables application mode.
type Mode string

// Application modes.
const (
	ModeAll     Mode = "ALL"     // any INAPPLICABLE redeemable makes the request invalid
	ModePartial Mode = "PARTIAL" // inapplicable redeemables are left out
)

// Sorting is the order in which redeemables are applied.
type Sorting string

// Sorting rules.
const (
	SortingRequestedOrder    Sorting = "REQUESTED_ORDER"
	SortingCategoryHierarchy Sorting = "CATEGORY_HIERARCHY"
)

// NoEffectRule says what happens to a redeemable that changes nothing.
type NoEffectRule string

// No-effect rules.
const (
	NoEffectRedeemAnyway NoEffectRule = "REDEEM_ANYWAY"
	NoEffectSkip         NoEffectRule = "SKIP"
)

// Rules are the project's stacking rules (the subset supported). A zero
// field means its default (see DefaultRules); Stack treats unknown Mode,
// Sorting or NoEffect values as the defaults too (Validate reports them).
type Rules struct {
	RedeemablesLimit int          // max redeemables per request (1..30); checked by CheckRedeemables, not Stack
	ApplicableLimit  int          // max APPLICABLE redeemables (1..30)
	Mode             Mode         // ALL or PARTIAL
	Sorting          Sorting      // REQUESTED_ORDER or CATEGORY_HIERARCHY
	NoEffect         NoEffectRule // REDEEM_ANYWAY or SKIP

	// Category settings (see categories.go); candidates without a
	// category are subject to none of them.

	PerCategoryLimit               int            // max APPLICABLE per category (1..30)
	CategoryLimits                 map[string]int // per-category overrides of PerCategoryLimit (1..30)
	ExclusiveCategories            []string       // categories whose redeemables exclude all but exclusive and joint ones
	JointCategories                []string       // categories whose redeemables are never excluded
	ExclusiveLimit                 int            // max APPLICABLE redeemables of exclusive categories (1..5)
	ExclusivePerCategoryLimit      int            // max APPLICABLE per exclusive category (1..5)
	NoEffectSkipCategories         []string       // no-effect rule SKIP for these categories
	NoEffectRedeemAnywayCategories []string       // no-effect rule REDEEM_ANYWAY for these categories

	// ProductsOnce (redeemables_products_application_mode ONCE): a line an
	// earlier redeemable of the request discounted is not eligible again.
	ProductsOnce bool
}

// Products application modes.
const (
	ProductsStack = "STACK"
	ProductsOnce  = "ONCE"
)

// ProductsMode is the redeemables_products_application_mode value.
func (r Rules) ProductsMode() string {
	if r.ProductsOnce {
		return ProductsOnce
	}
	return ProductsStack
}

// DefaultRules returns RedeemablesLimit 30, ApplicableLimit 5, Mode ALL,
// Sorting REQUESTED_ORDER, NoEffect REDEEM_ANYWAY, PerCategoryLimit 1,
// ExclusiveLimit 1 and ExclusivePerCategoryLimit 1 (no category lists).
func DefaultRules() Rules {
	return Rules{RedeemablesLimit: 30, ApplicableLimit: 5, Mode: ModeAll,
		Sorting: SortingRequestedOrder, NoEffect: NoEffectRedeemAnyway,
		PerCategoryLimit: 1, ExclusiveLimit: 1, ExclusivePerCategoryLimit: 1}
}

// Validate reports limits outside 1..30 and unknown enum values; zero values
// are accepted (they mean the defaults).
func (r Rules) Validate() error {
	for _, l := range []struct {
		name string
		v    int
	}{{"redeemables_limit", r.RedeemablesLimit}, {"applicable_redeemables_limit", r.ApplicableLimit}} {
		if l.v != 0 && (l.v < 1 || l.v > 30) {
			return fmt.Errorf("discount: stacking rules: %s must be between 1 and 30 (got %d)", l.name, l.v)
		}
	}
	if r.Mode != "" && r.Mode != ModeAll && r.Mode != ModePartial {
		return fmt.Errorf("discount: stacking rules: unknown redeemables_application_mode %q", r.Mode)
	}
	if r.Sorting != "" && r.Sorting != SortingRequestedOrder && r.Sorting != SortingCategoryHierarchy {
		return fmt.Errorf("discount: stacking rules: unknown redeemables_sorting_rule %q", r.Sorting)
	}
	if r.NoEffect != "" && r.NoEffect != NoEffectRedeemAnyway && r.NoEffect != NoEffectSkip {
		return fmt.Errorf("discount: stacking rules: unknown redeemables_no_effect_rule %q", r.NoEffect)
	}
	return r.validateCategories()
}

// CheckRedeemables reports a request of n redeemables that is empty or above
// RedeemablesLimit (callers answer it with HTTP 400 before calling Stack).
func (r Rules) CheckRedeemables(n int) error {
	limit := r.normalized().RedeemablesLimit
	if n < 1 || n > limit {
		return fmt.Errorf("discount: a request must have between 1 and %d redeemables (got %d)", limit, n)
	}
	return nil
}

// WithDefaults returns r with zero and unknown values replaced by the
// defaults: the rules Stack applies.
func (r Rules) WithDefaults() Rules { return r.normalized() }

// normalized returns r with zero and unknown values replaced by the defaults.
func (r Rules) normalized() Rules {
	d := DefaultRules()
	if r.RedeemablesLimit > 0 {
		d.RedeemablesLimit = r.RedeemablesLimit
	}
	if r.ApplicableLimit > 0 {
		d.ApplicableLimit = r.ApplicableLimit
	}
	if r.Mode == ModePartial {
		d.Mode = ModePartial
	}
	if r.Sorting == SortingCategoryHierarchy {
		d.Sorting = SortingCategoryHierarchy
	}
	if r.NoEffect == NoEffectSkip {
		d.NoEffect = NoEffectSkip
	}
	for _, l := range []struct{ v, dst *int }{{&r.PerCategoryLimit, &d.PerCategoryLimit},
		{&r.ExclusiveLimit, &d.ExclusiveLimit}, {&r.ExclusivePerCategoryLimit, &d.ExclusivePerCategoryLimit}} {
		if *l.v > 0 {
			*l.dst = *l.v
		}
	}
	d.CategoryLimits, d.ExclusiveCategories, d.JointCategories = r.CategoryLimits, r.ExclusiveCategories, r.JointCategories
	d.NoEffectSkipCategories, d.NoEffectRedeemAnywayCategories = r.NoEffectSkipCategories, r.NoEffectRedeemAnywayCategories
	d.ProductsOnce = r.ProductsOnce
	return d
}

// Order returns the indexes of cs in the order r applies them: request order,
// or with CATEGORY_HIERARCHY ascending Hierarchy (candidates without a
// category — Category "" and Hierarchy 0 — last, ties in request order).
func (r Rules) Order(cs []Candidate) []int {
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	if r.normalized().Sorting == SortingCategoryHierarchy {
		rank := func(i int) (int, bool) { return cs[i].Hierarchy, cs[i].Category == "" && cs[i].Hierarchy == 0 }
		slices.SortStableFunc(idx, func(a, b int) int {
			ha, za := rank(a)
			hb, zb := rank(b)
			switch {
			case za != zb:
				if za {
					return 1
				}
				return -1
			case ha < hb:
				return -1
			case ha > hb:
				return 1
			}
			return 0
		})
	}
	return idx
}
