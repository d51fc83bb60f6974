package discount

import (
	"slices"
	"testing"
)

// TestApplyEffects covers the item effects and limits beyond the reference examples.
func TestApplyEffects(t *testing.T) {
	tests := []struct {
		name   string
		order  func(t *testing.T) *Order
		before []Discount // applied first, to all lines
		d      Discount
		el     Eligible
		order0 int64   // want Result.OrderDiscount
		items  []int64 // want Result.ItemDiscounts
	}{
		{"fixed items: new unit price", cart3, nil,
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, FixedAmount: 1500}, only("tshirt", "pen", "mug"),
			0, []int64{1500, 500, 0}},
		{"fixed items: per unit",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, line("a", 3, 1000), Item{ProductID: "b", Amount: 800})
			}, nil,
			Discount{Type: TypeFixed, Effect: EffectApplyToItems, FixedAmount: 600}, nil,
			0, []int64{1200, 200}},
		{"fixed order above the remaining gives nothing", cart3, nil,
			Discount{Type: TypeFixed, FixedAmount: 7000}, nil, 0, []int64{0, 0, 0}},
		{"by quantity: a line without quantity counts one unit",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, Item{ProductID: "a", Amount: 800}, line("b", 2, 100))
			}, nil,
			Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 300}, nil,
			0, []int64{300, 200}},
		{"percent items with amount_limit: per line", cart3, nil,
			Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 10, AmountLimit: 70}, nil,
			0, []int64{70, 70, 70}},
		{"aggregated limit on order", cart3, nil,
			Discount{Type: TypePercent, PercentOff: 50, AggregatedAmountLimit: 1234}, nil, 1234, []int64{0, 0, 0}},
		{"aggregated limit on items", cart3, nil,
			Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 1000, AggregatedAmountLimit: 1000}, nil,
			0, []int64{333, 333, 334}},
		{"items after an order discount: capped by what is left", cart3,
			[]Discount{{Type: TypeAmount, AmountOff: 5500}},
			Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 1000}, nil,
			0, []int64{167, 167, 166}},
		{"items on an order smaller than its lines",
			func(t *testing.T) *Order { return mustOrder(t, ptr(1000), line("a", 1, 3000), line("b", 1, 1000)) }, nil,
			Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 2000}, nil,
			0, []int64{667, 333}},
		{"stacked items use the line's remaining amount", cart3,
			[]Discount{{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 900}},
			Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionally, AmountOff: 3000}, nil,
			0, []int64{1909, 1000, 91}},
		{"proportionally by quantity caps a line at its remaining",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("a", 9, 10), line("b", 1, 5000)) }, nil,
			Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionallyByQuantity, AmountOff: 1000}, nil,
			0, []int64{90, 910}},
		{"no eligible line", cart3, nil,
			Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionally, AmountOff: 1000}, only("none"),
			0, []int64{0, 0, 0}},
		{"percent 0", cart3, nil, Discount{Type: TypePercent, PercentOff: 0}, nil, 0, []int64{0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.order(t)
			for _, d := range tc.before {
				mustApply(t, o, d, nil)
			}
			pre := o.Clone()
			res := mustApply(t, o, tc.d, tc.el)
			if res.OrderDiscount != tc.order0 || !slices.Equal(res.ItemDiscounts, tc.items) {
				t.Errorf("result %+v, want order %d items %v", res, tc.order0, tc.items)
			}
			if res.Total != res.OrderDiscount+sum(res.ItemDiscounts) {
				t.Errorf("Total %d != parts", res.Total)
			}
			if o.DiscountAmount-pre.DiscountAmount != res.OrderDiscount {
				t.Errorf("order discount moved by %d, result %d", o.DiscountAmount-pre.DiscountAmount, res.OrderDiscount)
			}
			for i := range o.Items {
				if d := o.Items[i].DiscountAmount - pre.Items[i].DiscountAmount; d != res.ItemDiscounts[i] {
					t.Errorf("line %d moved by %d, result %d", i, d, res.ItemDiscounts[i])
				}
			}
		})
	}
}

// TestAppliedVersusCumulative: earlier discounts count in DiscountAmount, not in the applied amounts.
func TestAppliedVersusCumulative(t *testing.T) {
	o := mustOrder(t, nil, Item{ProductID: "a", Quantity: 1, Price: 3000, DiscountAmount: 1000}, line("b", 1, 1000))
	if err := o.SetPreviousDiscount(500); err != nil {
		t.Fatal(err)
	}
	mustApply(t, o, Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 2500}, nil)
	mustApply(t, o, Discount{Type: TypeAmount, AmountOff: 100}, nil)
	// R = 4000 − 1000 − 500 = 2500 caps the line shares 2000 + 1000.
	if got := lineDiscounts(o); !slices.Equal(got, []int64{2667, 833}) {
		t.Errorf("lines %v", got)
	}
	if o.ItemsAppliedDiscountAmount() != 2500 || o.ItemsDiscountAmount() != 3500 ||
		o.AppliedDiscountAmount != 0 || o.DiscountAmount != 500 || o.TotalAmount() != 0 {
		t.Errorf("order %+v", o)
	}
}
