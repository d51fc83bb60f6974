package discount

import (
	"reflect"
	"testing"
)

// adventureCart is the reference's §7.4 sample cart: Mug 1000×2, Poster
// 1500×3, T-shirt 2000×3 (the Adventure brand) and Bottle 2500×2 (not).
func adventureCart(t *testing.T) *Order {
	return mustOrder(t, nil, line("mug", 2, 1000), line("poster", 3, 1500), line("tshirt", 3, 2000), line("bottle", 2, 2500))
}

// adventure is the §7.4 target: the brand's products.
var adventure = Target{Match: only("mug", "poster", "tshirt")}

// TestReferenceItemEffects: the §7.4 table, line by line.
func TestReferenceItemEffects(t *testing.T) {
	tests := []struct {
		name string
		d    Discount
		want []int64
	}{
		{"AMOUNT 1000 APPLY_TO_ITEMS", Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 1000}, []int64{1000, 1000, 1000, 0}},
		{"AMOUNT 1000 BY_QUANTITY", Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1000}, []int64{2000, 3000, 3000, 0}},
		{"AMOUNT 1000 PROPORTIONALLY", Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionally, AmountOff: 1000}, []int64{160, 360, 480, 0}},
		{"AMOUNT 1000 PROPORTIONALLY_BY_QUANTITY", Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionallyByQuantity, AmountOff: 1000}, []int64{250, 375, 375, 0}},
		{"PERCENT 10 APPLY_TO_ITEMS", Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 10}, []int64{200, 450, 600, 0}},
		{"FIXED 1000 APPLY_TO_ITEMS", Discount{Type: TypeFixed, Effect: EffectApplyToItems, FixedAmount: 1000}, []int64{0, 1500, 3000, 0}},
		{"FIXED entry price 1000, no fixed_amount", Discount{Type: TypeFixed, Effect: EffectApplyToItems,
			Targets: []Target{{Match: adventure.Match, Price: ptr(1000)}}}, []int64{0, 1500, 3000, 0}},
		{"PERCENT 10, amount_limit 400 per line", Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 10, AmountLimit: 400}, []int64{200, 400, 400, 0}},
		{"entry amount_limit 300 per line", Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1000,
			Targets: []Target{{Match: adventure.Match, AmountLimit: 300}}}, []int64{300, 300, 300, 0}},
		{"entry aggregated_amount_limit 4000", Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1000,
			Targets: []Target{{Match: adventure.Match, AggregatedAmountLimit: 4000}}}, []int64{1000, 1500, 1500, 0}},
		{"quantity_limit 1 per line", Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1000,
			Targets: []Target{{Match: adventure.Match, QuantityLimit: 1}}}, []int64{1000, 1000, 1000, 0}},
		{"aggregated_quantity_limit 4", Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1000,
			Targets: []Target{{Match: adventure.Match, AggregatedQuantityLimit: 4}}}, []int64{2000, 2000, 0, 0}},
		{"several caps: the smallest wins", Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1000,
			Targets: []Target{{Match: adventure.Match, QuantityLimit: 2, AmountLimit: 1500, AggregatedAmountLimit: 3200}}},
			[]int64{1500, 1500, 200}[:0]}, // filled below
		{"PERCENT 50 on 2 of 3 posters: partial line", Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 50,
			Targets: []Target{{Match: only("poster"), QuantityLimit: 2}}}, []int64{0, 1500, 0, 0}},
		{"FIXED 1000 on 1 poster unit", Discount{Type: TypeFixed, Effect: EffectApplyToItems, FixedAmount: 1000,
			Targets: []Target{{Match: only("poster"), QuantityLimit: 1}}}, []int64{0, 500, 0, 0}},
	}
	// quantity_limit 2 → mug 2000, poster 2000, t-shirt 2000; amount_limit
	// 1500 per line → 1500 each (4500); aggregated 3200 → exact split 1067/1067/1066.
	tests[12].want = []int64{1067, 1067, 1066, 0}
	for _, tt := range tests {
		o := adventureCart(t)
		d := tt.d
		if d.Targets == nil {
			d.Targets = []Target{adventure}
		}
		res := mustApply(t, o, d, nil)
		if got := lineDiscounts(o); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: lines %v, want %v", tt.name, got, tt.want)
		}
		if o.Amount != 17500 || res.Total != sum(tt.want) {
			t.Errorf("%s: amount %d, total %d", tt.name, o.Amount, res.Total)
		}
	}
}

// skipCart is the §7.3 example in another request order: Mug 1000,
// Socks 500, T-shirt 2000, Poster 1500.
func skipCart(t *testing.T, qty int64) *Order {
	return mustOrder(t, nil, line("mug", qty, 1000), line("socks", qty, 500), line("tshirt", qty, 2000), line("poster", qty, 1500))
}

// TestSkipAndRepeat: §7.3 — from the most expensive, skip 1, repeat 2,
// 500 off per line: the Poster and Socks lines; with target UNIT the
// units 2, 4, 6, … of the unit sequence sorted by unit price.
func TestSkipAndRepeat(t *testing.T) {
	d := Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 500,
		Targets: []Target{{Pick: PickFromMostExpensive, SkipInitially: 1, Repeat: 2}}}
	o := skipCart(t, 1)
	res := mustApply(t, o, d, nil)
	if got := lineDiscounts(o); !reflect.DeepEqual(got, []int64{0, 500, 0, 500}) || res.Total != 1000 {
		t.Fatalf("ITEM: lines %v", got)
	}
	if got := res.Targets[0].Lines; !reflect.DeepEqual(got, []int{3, 1}) {
		t.Errorf("order_item_indices %v, want [3 1] (Poster, then Socks)", got)
	}
	// UNIT: 2 of each; sorted units T T P P M M S S; skip 1, every 2nd:
	// units 2, 4, 6, 8 → one T-shirt, one Poster, one Mug, one Socks.
	d.Targets[0].Units = true
	d.Effect = EffectApplyToItemsByQuantity
	o = skipCart(t, 2)
	res = mustApply(t, o, d, nil)
	if got := lineDiscounts(o); !reflect.DeepEqual(got, []int64{500, 500, 500, 500}) {
		t.Fatalf("UNIT: lines %v", got)
	}
	want := []LineUnits{{2, []int64{2}}, {3, []int64{2}}, {0, []int64{2}}, {1, []int64{2}}}
	if got := res.Targets[0].Units; !reflect.DeepEqual(got, want) {
		t.Errorf("order_item_units %v, want %v", got, want)
	}
	// APPLY_FROM_CHEAPEST, skip 3 units: S S M skipped, then every unit.
	d.Targets[0] = Target{Pick: PickFromCheapest, Units: true, SkipInitially: 3}
	o = skipCart(t, 2)
	mustApply(t, o, d, nil)
	if got := lineDiscounts(o); !reflect.DeepEqual(got, []int64{500, 0, 1000, 1000}) {
		t.Errorf("FROM_CHEAPEST skip 3: lines %v", got)
	}
}

// TestCheapestAndMostExpensive: a single resource.
func TestCheapestAndMostExpensive(t *testing.T) {
	for _, tt := range []struct {
		pick  Pick
		units bool
		want  []int64
	}{
		{PickCheapest, false, []int64{0, 500, 0, 0}},       // the Socks line: 500 off of 2×500
		{PickMostExpensive, false, []int64{0, 0, 2000, 0}}, // the T-shirt line (2 × 2000), 50 %
		{PickMostExpensive, true, []int64{0, 0, 1000, 0}},  // one T-shirt unit, 50 %
		{PickCheapest, true, []int64{0, 250, 0, 0}},        // one Socks unit, 50 %
	} {
		d := Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 50, Targets: []Target{{Pick: tt.pick, Units: tt.units}}}
		o := skipCart(t, 2)
		mustApply(t, o, d, nil)
		if got := lineDiscounts(o); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s units=%v: %v, want %v", tt.pick, tt.units, got, tt.want)
		}
	}
}

// TestTargetsOwnLinesAndExclusion: a line belongs to the first target
// matching it; lines the eligible function refuses (exclusions, ONCE)
// belong to none.
func TestTargetsOwnLinesAndExclusion(t *testing.T) {
	d := Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 800, Targets: []Target{
		{Match: only("mug", "poster"), AmountLimit: 100}, {Match: only("poster", "tshirt")}}}
	o := adventureCart(t)
	res := mustApply(t, o, d, func(it Item) bool { return it.ProductID != "tshirt" })
	if got := lineDiscounts(o); !reflect.DeepEqual(got, []int64{100, 100, 0, 0}) {
		t.Errorf("lines %v", got)
	}
	if len(res.Targets) != 2 || len(res.Targets[1].Lines) != 0 {
		t.Errorf("targets %+v", res.Targets)
	}
}

// TestUnitListBound: past MaxListedUnits units the unit numbers are
// dropped, the discount is still computed, and the work stays per line.
func TestUnitListBound(t *testing.T) {
	o := mustOrder(t, nil, line("a", 600, 100), line("b", 600, 100))
	d := Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 10,
		Targets: []Target{{Units: true, Repeat: 3}}}
	res := mustApply(t, o, d, nil)
	if r := res.Targets[0]; !r.UnitsLimitExceeded || r.Units != nil || res.Total != 400*10 {
		t.Errorf("over the limit: %+v total %d", r, res.Total)
	}
	o = mustOrder(t, nil, line("a", 3, 100), line("b", 2, 100))
	res = mustApply(t, o, d, nil)
	want := []LineUnits{{0, []int64{1}}, {1, []int64{1}}}
	if r := res.Targets[0]; r.UnitsLimitExceeded || !reflect.DeepEqual(r.Units, want) {
		t.Errorf("under the limit: %+v", r)
	}
	big := mustOrder(t, nil, line("a", MaxAmount/1000, 1))
	res = mustApply(t, big, Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 1,
		Targets: []Target{{Units: true, Repeat: 2}}}, nil)
	if res.Total != (MaxAmount/1000+1)/2 {
		t.Errorf("10^10 units, every 2nd: %d", res.Total)
	}
}

// TestUnitEffectsReferenceNumbers: §7.5.
func TestUnitEffectsReferenceNumbers(t *testing.T) {
	o := mustOrder(t, nil, line("prod_a", 1, 1700))
	mustApply(t, o, Discount{Type: TypeUnit, Effect: EffectAddMissingItems, UnitOff: 23, UnitType: "prod_a"}, nil)
	if it := o.Items[0]; it.Quantity != 23 || it.DiscountAmount != 39100 || it.Subtotal() != 0 || it.DiscountQuantity != 23 {
		t.Errorf("ADD_MISSING_ITEMS: %+v", it)
	}
	o = mustOrder(t, nil, line("prod_a", 1, 1700))
	mustApply(t, o, Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 22, UnitType: "prod_a"}, nil)
	if it := o.Items[0]; it.Quantity != 23 || it.Amount != 39100 || it.DiscountAmount != 37400 || it.Subtotal() != 1700 {
		t.Errorf("ADD_NEW_ITEMS: %+v", it)
	}
}

// TestProductsApplicationModeOnce: with ONCE a line discounted by an
// earlier redeemable of the request is not eligible again; with STACK it is.
func TestProductsApplicationModeOnce(t *testing.T) {
	mugOff := &Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 300, Targets: []Target{{Match: only("mug")}}}
	allOff := &Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 10}
	for _, tt := range []struct {
		once bool
		want []int64
	}{{false, []int64{300 + 170, 450, 600, 500}}, {true, []int64{300, 450, 600, 500}}} {
		o := adventureCart(t)
		r := DefaultRules()
		r.ProductsOnce = tt.once
		outs, valid := Stack(o, r, []Candidate{{Discount: mugOff}, {Discount: allOff}})
		if !valid || outs[1].Status != StatusApplicable {
			t.Fatalf("once=%v: %+v", tt.once, outs)
		}
		if got := lineDiscounts(o); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("once=%v: lines %v, want %v", tt.once, got, tt.want)
		}
	}
}
