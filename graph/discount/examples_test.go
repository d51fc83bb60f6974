package discount

import (
	"slices"
	"testing"
)

// TestReferenceExamples replays the worked examples of the reference notes
// (§2.3, §3.3, §3.4 and the OpenAPI examples they cite).
func TestReferenceExamples(t *testing.T) {
	type step struct {
		d     Discount
		el    Eligible
		total int64 // Result.Total
	}
	type want struct {
		amount, initial, discount, itemsDiscount, totalAmount int64
		lines                                                 []int64 // items' DiscountAmount
	}
	tests := []struct {
		name  string
		order func(t *testing.T) *Order
		steps []step
		want  want
	}{
		{"percent 10 order", cart3,
			[]step{{Discount{Type: TypePercent, PercentOff: 10}, nil, 600}},
			want{6000, 6000, 600, 0, 5400, []int64{0, 0, 0}}},
		{"percent 10 amount_limit 500", cart3,
			[]step{{Discount{Type: TypePercent, PercentOff: 10, AmountLimit: 500}, nil, 500}},
			want{6000, 6000, 500, 0, 5500, []int64{0, 0, 0}}},
		{"percent 10 items pen+mug", cart3,
			[]step{{Discount{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 10}, only("pen", "mug"), 300}},
			want{6000, 6000, 0, 300, 5700, []int64{0, 200, 100}}},
		{"amount 1000 proportionally pen+mug", cart3,
			[]step{{Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionally, AmountOff: 1000}, only("pen", "mug"), 1000}},
			want{6000, 6000, 0, 1000, 5000, []int64{0, 667, 333}}},
		{"amount 1000 proportionally by quantity pen+mug",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, line("tshirt", 2, 1500), line("pen", 1, 2000), line("mug", 6, 1000))
			},
			[]step{{Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionallyByQuantity, AmountOff: 1000}, only("pen", "mug"), 1000}},
			want{11000, 11000, 0, 1000, 10000, []int64{0, 143, 857}}},
		{"amount 500 by quantity 6 mugs",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("mug", 6, 1000)) },
			[]step{{Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 500}, nil, 3000}},
			want{6000, 6000, 0, 3000, 3000, []int64{3000}}},
		{"amount 10000 order capped", cart3,
			[]step{{Discount{Type: TypeAmount, AmountOff: 10000}, nil, 6000}},
			want{6000, 6000, 6000, 0, 0, []int64{0, 0, 0}}},
		{"fixed 5000 order", cart3,
			[]step{{Discount{Type: TypeFixed, FixedAmount: 5000}, nil, 1000}},
			want{6000, 6000, 1000, 0, 5000, []int64{0, 0, 0}}},
		{"stack percent 10 then amount 1000", cart3,
			[]step{{Discount{Type: TypePercent, PercentOff: 10}, nil, 600}, {Discount{Type: TypeAmount, AmountOff: 1000}, nil, 1000}},
			want{6000, 6000, 1600, 0, 4400, []int64{0, 0, 0}}},
		{"amount 1000 items on 2000 and 700 (True - 5 Redeemables)",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("watchflix", 1, 2000), line("roses", 1, 700)) },
			[]step{{Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 1000}, nil, 1700}},
			want{2700, 2700, 0, 1700, 1000, []int64{1000, 700}}},
		{"300 proportionally over 3300 and 3400 (Discount Coupon, order amount 6000)",
			func(t *testing.T) *Order {
				return mustOrder(t, ptr(6000),
					Item{ProductID: "a", Quantity: 1, Price: 3000, Amount: 3300},
					Item{ProductID: "b", Quantity: 2, Price: 3000, Amount: 3400})
			},
			[]step{{Discount{Type: TypeAmount, Effect: EffectApplyToItemsProportionally, AmountOff: 300}, nil, 300}},
			want{6000, 6000, 0, 300, 5700, []int64{148, 152}}},
		{"§2.3 Amount: 46500 minus 1000",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, line("a", 1, 6500), line("b", 1, 6000), line("c", 1, 2000), line("d", 2, 5000), line("e", 2, 11000))
			},
			[]step{{Discount{Type: TypeAmount, Effect: EffectApplyToOrder, AmountOff: 1000}, nil, 1000}},
			want{46500, 46500, 1000, 0, 45500, []int64{0, 0, 0, 0, 0}}},
		{"unit ADD_NEW_ITEMS on a line with quantity 0",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, line("keychain", 1, 9500), line("pants", 1, 18500), line("jacket", 0, 29900))
			},
			[]step{{Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 3, UnitType: "jacket"}, nil, 89700}},
			want{117700, 28000, 0, 89700, 28000, []int64{0, 0, 89700}}},
		{"Unit - Add order items: new SKU line, free shipping, then 30 % off",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, line("keychain", 1, 9500), line("pants", 1, 18500))
			},
			[]step{
				{Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 3, UnitType: "sku_jacket", UnitPrice: 29900}, nil, 89700},
				{Discount{Type: TypeUnit, UnitOff: 1, UnitType: "prod_5h1pp1ng"}, nil, 0},
				{Discount{Type: TypePercent, PercentOff: 30}, nil, 8400},
			},
			want{117700, 28000, 8400, 89700, 19600, []int64{0, 0, 89700, 0}}},
		{"free shipping adds a line",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, Item{ProductID: "coffee", Quantity: 1, Price: 1200}, Item{ProductID: "book", Quantity: 1, Price: 3100})
			},
			[]step{{Discount{Type: TypeUnit, Effect: EffectAddMissingItems, UnitOff: 1, UnitType: "prod_5h1pp1ng"}, nil, 0}},
			want{4300, 4300, 0, 0, 4300, []int64{0, 0, 0}}},
		{"percent 12.5 of 333 rounds half-up",
			func(t *testing.T) *Order { return mustOrder(t, ptr(333)) },
			[]step{{Discount{Type: TypePercent, PercentOff: 12.5}, nil, 42}},
			want{333, 333, 42, 0, 291, []int64{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.order(t)
			for k, s := range tc.steps {
				res := mustApply(t, o, s.d, s.el)
				if res.Total != s.total {
					t.Errorf("step %d: Total = %d, want %d", k, res.Total, s.total)
				}
				if got := res.OrderDiscount + sum(res.ItemDiscounts); got != res.Total {
					t.Errorf("step %d: parts sum to %d, Total %d", k, got, res.Total)
				}
			}
			w := tc.want
			got := want{o.Amount, o.InitialAmount, o.DiscountAmount, o.ItemsDiscountAmount(), o.TotalAmount(), lineDiscounts(o)}
			if got.amount != w.amount || got.initial != w.initial || got.discount != w.discount ||
				got.itemsDiscount != w.itemsDiscount || got.totalAmount != w.totalAmount || !slices.Equal(got.lines, w.lines) {
				t.Errorf("got  %+v\nwant %+v", got, w)
			}
			if o.TotalAppliedDiscountAmount() != o.TotalDiscountAmount() {
				t.Errorf("applied %d != cumulative %d on a fresh order", o.TotalAppliedDiscountAmount(), o.TotalDiscountAmount())
			}
		})
	}
}

// TestUnitExampleLines checks the line fields of the UNIT examples.
func TestUnitExampleLines(t *testing.T) {
	o := mustOrder(t, nil, line("keychain", 1, 9500), line("pants", 1, 18500), line("jacket", 0, 29900))
	res := mustApply(t, o, Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 3, UnitType: "jacket"}, nil)
	j := o.Items[2]
	want := Item{ProductID: "jacket", Quantity: 3, Price: 29900, Amount: 89700, InitialQuantity: 0, InitialAmount: 0,
		DiscountQuantity: 3, DiscountAmount: 89700, AppliedDiscountAmount: 89700}
	if j != want {
		t.Errorf("jacket line = %+v\nwant %+v", j, want)
	}
	if res.AddedUnits != 3 || !slices.Equal(res.ItemDiscounts, []int64{0, 0, 89700}) {
		t.Errorf("result = %+v", res)
	}

	o = mustOrder(t, nil, line("coffee", 1, 1200), line("book", 1, 3100))
	res = mustApply(t, o, Discount{Type: TypeUnit, UnitOff: 1, UnitType: "prod_5h1pp1ng"}, nil)
	ship := o.Items[2]
	want = Item{ProductID: "prod_5h1pp1ng", Quantity: 1, DiscountQuantity: 1, Added: true}
	if len(o.Items) != 3 || ship != want {
		t.Errorf("shipping line = %+v\nwant %+v", ship, want)
	}
	if res.AddedUnits != 1 || res.Total != 0 || len(res.ItemDiscounts) != 3 {
		t.Errorf("result = %+v", res)
	}
}
