package discount

import "testing"

// bundleCart is the reference's §7.4 sample cart: Mug 1000×2, Poster
// 1500×3, T-shirt 2000×3, Bottle 2500×2 (amount 17500).
func bundleCart(t *testing.T) *Order {
	return mustOrder(t, nil, line("mug", 2, 1000), line("poster", 3, 1500), line("tshirt", 3, 2000), line("bottle", 2, 2500))
}

// TestPerBundles: a bundle "1 mug + 1 poster" (limit 3) is found twice in
// the sample cart (two mugs); AMOUNT, PERCENT and UNIT discounts are
// multiplied by the bundles found (reference §7.6), FIXED is not, and no
// complete bundle takes nothing off.
func TestPerBundles(t *testing.T) {
	tests := []struct {
		name    string
		d       Discount
		bundles int64
		total   int64 // Result.Total on the sample cart
		lines   []int64
	}{
		{"AMOUNT 1000 order, 2 bundles", Discount{Type: TypeAmount, AmountOff: 1000}, 2, 2000, []int64{0, 0, 0, 0}},
		{"AMOUNT 1000 order, aggregated limit 1500 still caps", Discount{Type: TypeAmount, AmountOff: 1000, AggregatedAmountLimit: 1500}, 2, 1500, []int64{0, 0, 0, 0}},
		{"AMOUNT 1000 items, 2 bundles: 2000 per line", Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 1000}, 2, 8000, []int64{2000, 2000, 2000, 2000}},
		{"PERCENT 10 order, 2 bundles: 20%", Discount{Type: TypePercent, PercentOff: 10}, 2, 3500, []int64{0, 0, 0, 0}},
		{"PERCENT 60 order, 2 bundles: at most 100%", Discount{Type: TypePercent, PercentOff: 60}, 2, 17500, []int64{0, 0, 0, 0}},
		{"UNIT 1 bottle ADD_NEW_ITEMS, 2 bundles: 2 free bottles", Discount{Type: TypeUnit, UnitOff: 1, UnitType: "bottle", Effect: EffectAddNewItems}, 2, 5000, []int64{0, 0, 0, 5000}},
		{"UNIT many, 2 bundles", Discount{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "mug", Effect: EffectAddNewItems}}}, 2, 2000, []int64{2000, 0, 0, 0}},
		{"FIXED new total 15000, not multiplied", Discount{Type: TypeFixed, FixedAmount: 15000}, 2, 2500, []int64{0, 0, 0, 0}},
		{"AMOUNT 1000, no complete bundle", Discount{Type: TypeAmount, AmountOff: 1000}, 0, 0, []int64{0, 0, 0, 0}},
		{"AMOUNT 1000, one bundle: as defined", Discount{Type: TypeAmount, AmountOff: 1000}, 1, 1000, []int64{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		o := bundleCart(t)
		res, err := o.Apply(tt.d.PerBundles(tt.bundles), nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if res.Total != tt.total {
			t.Errorf("%s: total %d, want %d", tt.name, res.Total, tt.total)
		}
		for i, it := range o.Items[:len(tt.lines)] {
			if it.DiscountAmount != tt.lines[i] {
				t.Errorf("%s: line %d discount %d, want %d", tt.name, i, it.DiscountAmount, tt.lines[i])
			}
		}
	}
}

// TestPerBundlesKeepsWithinMaxAmount: a huge amount times 100 bundles
// stays a valid discount.
func TestPerBundlesKeepsWithinMaxAmount(t *testing.T) {
	d := Discount{Type: TypeAmount, AmountOff: MaxAmount / 2}.PerBundles(100)
	if d.AmountOff != MaxAmount {
		t.Fatalf("amount_off %d, want MaxAmount", d.AmountOff)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
}
