package discount

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestStackCategories(t *testing.T) {
	amt := func(v int64) *Discount { return &Discount{Type: TypeAmount, AmountOff: v} }
	in := func(cat string, d *Discount) Candidate { return Candidate{Category: cat, Hierarchy: 1, Discount: d} }
	excl := Rules{ExclusiveCategories: []string{"X", "Y"}, JointCategories: []string{"J"}, Mode: ModePartial}
	tests := []struct {
		name      string
		rules     Rules
		cs        []Candidate
		want      []string
		valid     bool
		remaining int64
	}{
		{"one per category by default", DefaultRules(),
			[]Candidate{in("A", amt(100)), in("A", amt(100)), in("B", amt(100)), {Discount: amt(100)}, {Discount: amt(100)}},
			[]string{"APPLICABLE:", "SKIPPED:applicable_redeemables_per_category_limit_exceeded", "APPLICABLE:", "APPLICABLE:", "APPLICABLE:"},
			true, 5600},
		{"per-category limit", Rules{PerCategoryLimit: 2},
			[]Candidate{in("A", amt(100)), in("A", amt(100)), in("A", amt(100))},
			[]string{"APPLICABLE:", "APPLICABLE:", "SKIPPED:applicable_redeemables_per_category_limit_exceeded"},
			true, 5800},
		{"category override", Rules{PerCategoryLimit: 2, CategoryLimits: map[string]int{"A": 1, "B": 3}},
			[]Candidate{in("A", amt(100)), in("A", amt(100)), in("B", amt(100)), in("B", amt(100)), in("B", amt(100))},
			[]string{"APPLICABLE:", "SKIPPED:applicable_redeemables_per_category_limit_exceeded", "APPLICABLE:", "APPLICABLE:", "APPLICABLE:"},
			true, 5600},
		{"a skipped one does not count", Rules{NoEffect: NoEffectSkip},
			[]Candidate{in("A", amt(0)), in("A", amt(100))},
			[]string{"SKIPPED:no_effect", "APPLICABLE:"},
			true, 5900},
		{"a material reward counts", DefaultRules(),
			[]Candidate{in("A", nil), in("A", amt(100))},
			[]string{"APPLICABLE:", "SKIPPED:applicable_redeemables_per_category_limit_exceeded"},
			true, 6000},
		{"exclusive excludes others, not joint ones, in any order", excl,
			[]Candidate{{Discount: amt(100)}, in("A", amt(100)), in("J", amt(100)), in("X", amt(100))},
			[]string{"SKIPPED:exclusion_rules_not_met", "SKIPPED:exclusion_rules_not_met", "APPLICABLE:", "APPLICABLE:"},
			true, 5800},
		{"exclusive limit", excl,
			[]Candidate{in("X", amt(100)), in("Y", amt(100))},
			[]string{"APPLICABLE:", "SKIPPED:applicable_exclusive_redeemables_limit_exceeded"},
			true, 5900},
		{"exclusive per-category limit", Rules{ExclusiveCategories: []string{"X", "Y"}, ExclusiveLimit: 3},
			[]Candidate{in("X", amt(100)), in("X", amt(100)), in("Y", amt(100))},
			[]string{"APPLICABLE:", "SKIPPED:applicable_exclusive_redeemables_per_category_limit_exceeded", "APPLICABLE:"},
			true, 5800},
		{"exclusive per-category limit 2", Rules{ExclusiveCategories: []string{"X"}, ExclusiveLimit: 5, ExclusivePerCategoryLimit: 2},
			[]Candidate{in("X", amt(100)), in("X", amt(100)), in("X", amt(100))},
			[]string{"APPLICABLE:", "APPLICABLE:", "SKIPPED:applicable_exclusive_redeemables_per_category_limit_exceeded"},
			true, 5800},
		{"a failed exclusive one excludes nothing", excl,
			[]Candidate{{Discount: amt(100)}, {Category: "X", Failure: "voucher_expired"}},
			[]string{"APPLICABLE:", "INAPPLICABLE:voucher_expired"},
			true, 5900},
		{"an exclusive one without effect excludes nothing", Rules{ExclusiveCategories: []string{"X"}, NoEffect: NoEffectSkip},
			[]Candidate{{Discount: amt(100)}, in("X", amt(0))},
			[]string{"APPLICABLE:", "SKIPPED:no_effect"},
			true, 5900},
		{"exclusion in ALL mode: skipped ones keep the request valid", Rules{ExclusiveCategories: []string{"X"}},
			[]Candidate{{Discount: amt(100)}, in("X", amt(100))},
			[]string{"SKIPPED:exclusion_rules_not_met", "APPLICABLE:"},
			true, 5900},
		{"no-effect skip category", Rules{NoEffectSkipCategories: []string{"A"}},
			[]Candidate{in("A", amt(0)), in("B", amt(0)), {Discount: amt(0)}},
			[]string{"SKIPPED:no_effect", "APPLICABLE:", "APPLICABLE:"},
			true, 6000},
		{"no-effect redeem-anyway category", Rules{NoEffect: NoEffectSkip, NoEffectRedeemAnywayCategories: []string{"A"}},
			[]Candidate{in("A", amt(0)), in("B", amt(0)), {Discount: amt(0)}},
			[]string{"APPLICABLE:", "SKIPPED:no_effect", "SKIPPED:no_effect"},
			true, 6000},
		{"applicable limit before category limits", Rules{ApplicableLimit: 1},
			[]Candidate{in("A", amt(100)), in("A", amt(100))},
			[]string{"APPLICABLE:", "SKIPPED:applicable_redeemables_limit_exceeded"},
			true, 5900},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.rules.Validate(); err != nil {
				t.Fatal(err)
			}
			o := cart3(t)
			out, valid := Stack(o, tc.rules, tc.cs)
			if got := statuses(out); !slices.Equal(got, tc.want) || valid != tc.valid {
				t.Errorf("Stack = %v valid %v, want %v valid %v", got, valid, tc.want, tc.valid)
			}
			if o.TotalAmount() != tc.remaining {
				t.Errorf("total amount %d, want %d", o.TotalAmount(), tc.remaining)
			}
		})
	}
}

func TestOrderCategoryHierarchy(t *testing.T) {
	r := Rules{Sorting: SortingCategoryHierarchy}
	got := r.Order([]Candidate{{}, {Category: "B", Hierarchy: 2}, {Category: "Z", Hierarchy: 0}, {Category: "A", Hierarchy: 1}, {Category: "B", Hierarchy: 2}})
	if want := []int{2, 3, 1, 4, 0}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v (hierarchy 0 of a category first, no category last)", got, want)
	}
}

func TestValidateCategories(t *testing.T) {
	for _, r := range []Rules{
		{PerCategoryLimit: 31}, {PerCategoryLimit: -1}, {ExclusiveLimit: 6}, {ExclusivePerCategoryLimit: 6},
		{CategoryLimits: map[string]int{"A": 0}}, {CategoryLimits: map[string]int{"A": 31}},
		{ExclusiveCategories: []string{"A"}, JointCategories: []string{"B", "A"}},
		{NoEffectSkipCategories: []string{"A"}, NoEffectRedeemAnywayCategories: []string{"A"}},
	} {
		if err := r.Validate(); err == nil {
			t.Errorf("Validate(%+v) accepted", r)
		}
	}
	ok := Rules{PerCategoryLimit: 30, ExclusiveLimit: 5, ExclusivePerCategoryLimit: 5, CategoryLimits: map[string]int{"A": 30, "B": 1},
		ExclusiveCategories: []string{"A"}, JointCategories: []string{"B"}, NoEffectSkipCategories: []string{"A"}, NoEffectRedeemAnywayCategories: []string{"B"}}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

// TestStackCategoryProperties checks the category limits and exclusion on
// random requests.
func TestStackCategoryProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 4))
	cats := []string{"", "A", "B", "X", "J"}
	for iter := range 1000 {
		r := Rules{ApplicableLimit: 1 + rng.IntN(6), PerCategoryLimit: 1 + rng.IntN(2), ExclusiveLimit: 1 + rng.IntN(2),
			ExclusivePerCategoryLimit: 1 + rng.IntN(2), Mode: []Mode{ModeAll, ModePartial}[rng.IntN(2)],
			NoEffect: []NoEffectRule{NoEffectRedeemAnyway, NoEffectSkip}[rng.IntN(2)]}
		if rng.IntN(2) == 0 {
			r.ExclusiveCategories, r.JointCategories = []string{"X", "B"}, []string{"J"}
		}
		if rng.IntN(2) == 0 {
			r.CategoryLimits = map[string]int{"A": 1 + rng.IntN(3)}
		}
		cs := make([]Candidate, rng.IntN(8))
		for i := range cs {
			cs[i].Category = cats[rng.IntN(len(cats))]
			switch rng.IntN(8) {
			case 0:
				cs[i].Failure = "voucher_expired"
			case 1: // no discount
			default:
				d := randomDiscount(rng)
				cs[i].Discount = &d
			}
		}
		o := randomCart(t, rng)
		out, _ := Stack(o, r, cs)
		n := r.normalized()
		perCat, exclPerCat := map[string]int{}, map[string]int{}
		exclusive, others := 0, false
		for i, oc := range out {
			if oc.Status != StatusApplicable {
				continue
			}
			c := cs[i]
			switch {
			case n.exclusive(c):
				exclusive++
				exclPerCat[c.Category]++
			case c.Category != "":
				perCat[c.Category]++
			}
			if !n.exclusive(c) && !n.joint(c) {
				others = true
			}
		}
		for cat, k := range perCat {
			if k > n.categoryLimit(cat) {
				t.Fatalf("#%d: %d applicable in %s, limit %d: %v", iter, k, cat, n.categoryLimit(cat), statuses(out))
			}
		}
		for cat, k := range exclPerCat {
			if k > n.ExclusivePerCategoryLimit {
				t.Fatalf("#%d: %d applicable in exclusive %s: %v", iter, k, cat, statuses(out))
			}
		}
		if exclusive > n.ExclusiveLimit || (exclusive > 0 && others) {
			t.Fatalf("#%d: %d exclusive applicable, others %v: %v", iter, exclusive, others, statuses(out))
		}
		for i, oc := range out {
			if oc.Key == KeyExclusionRulesNotMet && exclusive == 0 {
				t.Fatalf("#%d: candidate %d excluded though no exclusive one applies: %v", iter, i, statuses(out))
			}
		}
		if err := o.Check(); err != nil {
			t.Fatalf("#%d: %v", iter, err)
		}
	}
}
