package discount

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// statuses returns the outcome statuses and keys as "STATUS:key" strings.
func statuses(out []Outcome) []string {
	s := make([]string, len(out))
	for i, o := range out {
		s[i] = string(o.Status) + ":" + o.Key
	}
	return s
}

func TestDefaultRules(t *testing.T) {
	want := Rules{RedeemablesLimit: 30, ApplicableLimit: 5, Mode: ModeAll, Sorting: SortingRequestedOrder, NoEffect: NoEffectRedeemAnyway,
		PerCategoryLimit: 1, ExclusiveLimit: 1, ExclusivePerCategoryLimit: 1}
	if got := DefaultRules(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultRules() = %+v", got)
	}
	if got := (Rules{}).normalized(); !reflect.DeepEqual(got, want) {
		t.Errorf("zero rules normalize to %+v", got)
	}
	if err := DefaultRules().Validate(); err != nil {
		t.Error(err)
	}
	for _, r := range []Rules{{ApplicableLimit: 31}, {RedeemablesLimit: -1}, {Mode: "SOME"}, {Sorting: "X"}, {NoEffect: "Y"}} {
		if err := r.Validate(); err == nil {
			t.Errorf("Validate(%+v) accepted", r)
		}
	}
	r := Rules{RedeemablesLimit: 2}
	if r.CheckRedeemables(2) != nil || r.CheckRedeemables(3) == nil || r.CheckRedeemables(0) == nil || (Rules{}).CheckRedeemables(30) != nil {
		t.Error("CheckRedeemables wrong")
	}
}

func TestStackSorting(t *testing.T) {
	percent := &Discount{Type: TypePercent, PercentOff: 10}
	amount := &Discount{Type: TypeAmount, AmountOff: 1000}
	cs := []Candidate{{Hierarchy: 2, Discount: percent}, {Hierarchy: 1, Discount: amount}}

	o := cart3(t)
	out, valid := Stack(o, DefaultRules(), cs)
	if !valid || out[0].Result.Total != 600 || out[1].Result.Total != 1000 || o.TotalAmount() != 4400 {
		t.Errorf("requested order: valid %v, %+v, total %d", valid, out, o.TotalAmount())
	}

	o = cart3(t)
	r := DefaultRules()
	r.Sorting = SortingCategoryHierarchy
	out, valid = Stack(o, r, cs) // amount first: 1000, then 10 % of 5000
	if !valid || out[0].Result.Total != 500 || out[1].Result.Total != 1000 || o.TotalAmount() != 4500 {
		t.Errorf("category hierarchy: valid %v, %+v, total %d", valid, out, o.TotalAmount())
	}
	if !out[0].Applied || !out[1].Applied {
		t.Error("outcomes not marked applied")
	}

	got := r.Order([]Candidate{{Hierarchy: 0}, {Hierarchy: 3}, {Hierarchy: 1}, {Hierarchy: 3}, {Hierarchy: 0}, {Hierarchy: -1}})
	if want := []int{5, 2, 1, 3, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v", got, want)
	}
	if got := DefaultRules().Order(make([]Candidate, 3)); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("requested Order = %v", got)
	}
}

func TestStackStatuses(t *testing.T) {
	amt := func(v int64) *Discount { return &Discount{Type: TypeAmount, AmountOff: v} }
	bad := &Discount{Type: "BOGUS"}
	tests := []struct {
		name      string
		rules     Rules
		cs        []Candidate
		want      []string
		valid     bool
		remaining int64 // o.TotalAmount() after
	}{
		{"applicable limit", Rules{ApplicableLimit: 2},
			[]Candidate{{Discount: amt(100)}, {}, {Discount: amt(100)}, {Failure: "voucher_expired"}},
			[]string{"APPLICABLE:", "APPLICABLE:", "SKIPPED:applicable_redeemables_limit_exceeded", "INAPPLICABLE:voucher_expired"},
			false, 6000},
		{"applicable limit, partial", Rules{ApplicableLimit: 1, Mode: ModePartial},
			[]Candidate{{Discount: amt(100)}, {Discount: amt(100)}},
			[]string{"APPLICABLE:", "SKIPPED:applicable_redeemables_limit_exceeded"},
			true, 5900},
		{"all: preceding validation failed", DefaultRules(),
			[]Candidate{{Discount: amt(100)}, {Failure: "not_found"}, {Discount: amt(100)}, {Failure: "voucher_disabled"}},
			[]string{"APPLICABLE:", "INAPPLICABLE:not_found", "SKIPPED:preceding_validation_failed", "SKIPPED:preceding_validation_failed"},
			false, 6000},
		{"all: preceding in application order", Rules{Sorting: SortingCategoryHierarchy},
			[]Candidate{{Hierarchy: 2, Discount: amt(100)}, {Hierarchy: 1, Failure: "not_found"}},
			[]string{"SKIPPED:preceding_validation_failed", "INAPPLICABLE:not_found"},
			false, 6000},
		{"partial: failures left out", Rules{Mode: ModePartial},
			[]Candidate{{Failure: "not_found"}, {Discount: amt(100)}, {Discount: bad}, {Discount: amt(50)}},
			[]string{"INAPPLICABLE:not_found", "APPLICABLE:", "INAPPLICABLE:invalid_order", "APPLICABLE:"},
			true, 5850},
		{"partial: nothing applicable", Rules{Mode: ModePartial},
			[]Candidate{{Failure: "not_found"}, {Discount: bad}},
			[]string{"INAPPLICABLE:not_found", "INAPPLICABLE:invalid_order"},
			false, 6000},
		{"no effect skipped", Rules{NoEffect: NoEffectSkip, Mode: ModePartial},
			[]Candidate{{Discount: amt(6000)}, {Discount: amt(100)}, {Discount: &Discount{Type: TypeUnit, UnitOff: 1, UnitType: "prod_5h1pp1ng"}}, {}},
			[]string{"APPLICABLE:", "SKIPPED:no_effect", "APPLICABLE:", "APPLICABLE:"},
			true, 0},
		{"no effect redeemed anyway", DefaultRules(),
			[]Candidate{{Discount: amt(6000)}, {Discount: amt(100)}},
			[]string{"APPLICABLE:", "APPLICABLE:"},
			true, 0},
		{"no effect only: all skipped is valid in ALL mode", Rules{NoEffect: NoEffectSkip},
			[]Candidate{{Discount: amt(0)}},
			[]string{"SKIPPED:no_effect"},
			true, 6000},
		{"empty request", DefaultRules(), nil, []string{}, true, 6000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := cart3(t)
			out, valid := Stack(o, tc.rules, tc.cs)
			if got := statuses(out); !slices.Equal(got, tc.want) || valid != tc.valid {
				t.Errorf("Stack = %v valid %v, want %v valid %v", got, valid, tc.want, tc.valid)
			}
			if o.TotalAmount() != tc.remaining {
				t.Errorf("total amount %d, want %d", o.TotalAmount(), tc.remaining)
			}
			if err := o.Check(); err != nil {
				t.Error(err)
			}
			for i, oc := range out {
				if oc.Applied != (oc.Status == StatusApplicable && tc.cs[i].Discount != nil) {
					t.Errorf("outcome %d: Applied %v with status %s", i, oc.Applied, oc.Status)
				}
			}
		})
	}
}

// TestStackNoEffectRestores: a skipped UNIT discount that only raised DiscountQuantity leaves no trace.
func TestStackNoEffectRestores(t *testing.T) {
	o := mustOrder(t, nil, line("a", 1, 1000), Item{ProductID: "ship", Quantity: 1})
	before := o.Clone()
	out, valid := Stack(o, Rules{NoEffect: NoEffectSkip}, []Candidate{
		{Discount: &Discount{Type: TypeUnit, UnitOff: 1, UnitType: "ship"}},
		{Discount: &Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 100}, Eligible: only("none")},
	})
	if !valid || !slices.Equal(statuses(out), []string{"SKIPPED:no_effect", "SKIPPED:no_effect"}) {
		t.Errorf("Stack = %v, valid %v", statuses(out), valid)
	}
	if !reflect.DeepEqual(o, before) {
		t.Errorf("order changed:\n%+v\n%+v", o, before)
	}
}

// TestStackProperties replays random stacks and checks them against Apply.
func TestStackProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	for iter := range 1000 {
		o := randomCart(t, rng)
		start := o.Clone()
		r := Rules{ApplicableLimit: rng.IntN(4), Mode: []Mode{ModeAll, ModePartial}[rng.IntN(2)],
			Sorting:  []Sorting{SortingRequestedOrder, SortingCategoryHierarchy}[rng.IntN(2)],
			NoEffect: []NoEffectRule{NoEffectRedeemAnyway, NoEffectSkip}[rng.IntN(2)]}
		cs := make([]Candidate, rng.IntN(6))
		for i := range cs {
			cs[i].Hierarchy = rng.IntN(3)
			switch rng.IntN(8) {
			case 0:
				cs[i].Failure = "voucher_expired"
			case 1: // no discount
			default:
				d := randomDiscount(rng)
				cs[i].Discount, cs[i].Eligible = &d, randomEligible(rng)
			}
		}
		out, valid := Stack(o, r, cs)
		if len(out) != len(cs) {
			t.Fatalf("#%d: %d outcomes for %d candidates", iter, len(out), len(cs))
		}
		// Replay the applied ones in application order on a copy.
		replay := start.Clone()
		applicable, failed := 0, false
		for _, i := range r.Order(cs) {
			oc := out[i]
			if failed && r.normalized().Mode == ModeAll && oc.Key != KeyPrecedingValidationFailed {
				t.Fatalf("#%d: candidate %d after a failure is %s:%s", iter, i, oc.Status, oc.Key)
			}
			switch oc.Status {
			case StatusInapplicable:
				failed = true
			case StatusApplicable:
				applicable++
				if oc.Applied {
					res, err := replay.Apply(*cs[i].Discount, cs[i].Eligible)
					if err != nil || !reflect.DeepEqual(res, oc.Result) {
						t.Fatalf("#%d: replay of %d gave %+v, %v; Stack gave %+v", iter, i, res, err, oc.Result)
					}
				}
			}
		}
		if applicable > r.normalized().ApplicableLimit {
			t.Fatalf("#%d: %d applicable above the limit %d", iter, applicable, r.normalized().ApplicableLimit)
		}
		wantValid := applicable > 0
		if r.Mode == ModeAll {
			wantValid = !failed
		}
		if valid != wantValid {
			t.Fatalf("#%d: valid %v, want %v (%v)", iter, valid, wantValid, statuses(out))
		}
		if !valid {
			replay = start
		}
		if !reflect.DeepEqual(o, replay) {
			t.Fatalf("#%d: order after Stack differs from the replay\n%+v\n%+v", iter, o, replay)
		}
		if err := o.Check(); err != nil {
			t.Fatalf("#%d: %v", iter, err)
		}
	}
}

// TestStackLeavesLinesInPlace: Apply and Stack never change an order's
// lines in place (copy on write), so a copy of an Order value taken before
// them — what Stack restores from, and what a qualification shares between
// its candidates — still reads the order as it was, whatever happened.
func TestStackLeavesLinesInPlace(t *testing.T) {
	order := &Discount{Type: TypeAmount, AmountOff: 500}
	items := &Discount{Type: TypePercent, PercentOff: 10, Effect: EffectApplyToItems}
	unit := &Discount{Type: TypeUnit, UnitOff: 1, UnitType: "pen", Effect: EffectAddMissingItems}
	none := &Discount{Type: TypeAmount, AmountOff: 0}
	skip := DefaultRules()
	skip.NoEffect = NoEffectSkip
	for name, c := range map[string]struct {
		r  Rules
		cs []Candidate
	}{
		"order level":        {DefaultRules(), []Candidate{{Discount: order}}},
		"items":              {DefaultRules(), []Candidate{{Discount: items}}},
		"unit":               {DefaultRules(), []Candidate{{Discount: unit}}},
		"all three":          {DefaultRules(), []Candidate{{Discount: order}, {Discount: items}, {Discount: unit}}},
		"no effect, skipped": {skip, []Candidate{{Discount: items}, {Discount: none}}},
		"one fails: undone":  {DefaultRules(), []Candidate{{Discount: items}, {Discount: unit}, {Failure: "x"}}},
		"exclusive, worked out again": {Rules{ExclusiveCategories: []string{"ex"}}, []Candidate{{Discount: items},
			{Discount: order, Category: "ex", Failure: "y"}}},
	} {
		o := cart3(t)
		before := *o
		want := slices.Clone(o.Items)
		Stack(o, c.r, c.cs)
		if !slices.Equal(before.Items, want) {
			t.Errorf("%s: the lines before were changed in place: %+v", name, before.Items)
		}
		if _, err := o.Apply(*items, nil); err != nil || !slices.Equal(before.Items, want) {
			t.Errorf("%s: Apply after it changed the first lines (%v)", name, err)
		}
	}
}
