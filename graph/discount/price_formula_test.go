package discount

import "testing"

// TestPriceFormulaTargets: FIXED/APPLY_TO_ITEMS entries with a
// price_formula on the §7.4 sample cart: the formula's price per line
// (80% of the line's unit price, as validations.json's "Fixed" example
// IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE) gives
// for an order over 300), the entry's price when the formula has no
// value, fixed_amount when the entry has neither, nothing without any.
func TestPriceFormulaTargets(t *testing.T) {
	eighty := func(p int64) (int64, bool) { return p * 8 / 10, true }
	noValue := func(int64) (int64, bool) { return 0, false }
	tests := []struct {
		name  string
		d     Discount
		lines []int64
	}{
		{"formula 80%: mug 1000→800 ×2, poster 1500→1200 ×3",
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, NoFixedAmount: true, Targets: []Target{
				{Match: only("mug", "poster"), PriceOf: eighty}}}, []int64{400, 900, 0, 0}},
		{"formula without a value: the entry's price 1200 (fallback)",
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, NoFixedAmount: true, Targets: []Target{
				{Match: only("poster"), PriceOf: noValue, Price: ptr(1200)}}}, []int64{0, 900, 0, 0}},
		{"no value, no price: fixed_amount 1000",
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, FixedAmount: 1000, Targets: []Target{
				{Match: only("tshirt"), PriceOf: noValue}}}, []int64{0, 0, 3000, 0}},
		{"no value, no price, no fixed_amount: not discounted",
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, NoFixedAmount: true, Targets: []Target{
				{Match: only("tshirt"), PriceOf: noValue}}}, []int64{0, 0, 0, 0}},
		{"a formula price above the line's takes nothing off, a negative one everything",
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, NoFixedAmount: true, Targets: []Target{
				{Match: only("mug"), PriceOf: func(p int64) (int64, bool) { return p * 2, true }},
				{Match: only("bottle"), PriceOf: func(int64) (int64, bool) { return -5, true }}}}, []int64{0, 0, 0, 5000}},
		{"formula per entry: each entry its own",
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, NoFixedAmount: true, Targets: []Target{
				{Match: only("mug"), PriceOf: eighty},
				{Match: only("bottle"), PriceOf: func(p int64) (int64, bool) { return p - 100, true }}}}, []int64{400, 0, 0, 200}},
	}
	for _, tt := range tests {
		o := bundleCart(t)
		if _, err := o.Apply(tt.d, nil); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for i, want := range tt.lines {
			if got := o.Items[i].DiscountAmount; got != want {
				t.Errorf("%s: line %d discount %d, want %d", tt.name, i, got, want)
			}
		}
	}
}
