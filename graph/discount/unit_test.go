package discount

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestUnitEffects(t *testing.T) {
	type want struct {
		lines      []Item
		amount     int64
		total      int64
		added      int64
		itemShares []int64
	}
	tests := []struct {
		name  string
		order func(t *testing.T) *Order
		d     Discount
		want  want
	}{
		{"missing: one unit added",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("a", 1, 500)) },
			Discount{Type: TypeUnit, UnitOff: 2, UnitType: "a"},
			want{[]Item{{ProductID: "a", Quantity: 2, Price: 500, Amount: 1000, InitialQuantity: 1, InitialAmount: 500,
				DiscountQuantity: 2, DiscountAmount: 1000, AppliedDiscountAmount: 1000}}, 1000, 1000, 1, []int64{1000}}},
		{"missing: enough units already",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("a", 5, 500)) },
			Discount{Type: TypeUnit, UnitOff: 1, UnitType: "a"},
			want{[]Item{{ProductID: "a", Quantity: 5, Price: 500, Amount: 2500, InitialQuantity: 5, InitialAmount: 2500,
				DiscountQuantity: 1, DiscountAmount: 500, AppliedDiscountAmount: 500}}, 2500, 500, 0, []int64{500}}},
		{"missing: matched by sku id",
			func(t *testing.T) *Order {
				return mustOrder(t, nil, Item{ProductID: "p", SKUID: "s", Quantity: 1, Price: 300})
			},
			Discount{Type: TypeUnit, UnitOff: 1, UnitType: "s"},
			want{[]Item{{ProductID: "p", SKUID: "s", Quantity: 1, Price: 300, Amount: 300, InitialQuantity: 1, InitialAmount: 300,
				DiscountQuantity: 1, DiscountAmount: 300, AppliedDiscountAmount: 300}}, 300, 300, 0, []int64{300}}},
		{"new: catalog price on a new line",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("a", 1, 500)) },
			Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 2, UnitType: "b", UnitPrice: 250},
			want{[]Item{{ProductID: "a", Quantity: 1, Price: 500, Amount: 500, InitialQuantity: 1, InitialAmount: 500},
				{ProductID: "b", Quantity: 2, Price: 250, Amount: 500, DiscountQuantity: 2, DiscountAmount: 500,
					AppliedDiscountAmount: 500, Added: true}}, 1000, 500, 2, []int64{0, 500}}},
		{"new: line price derived from amount and quantity",
			func(t *testing.T) *Order { return mustOrder(t, nil, Item{ProductID: "a", Quantity: 2, Amount: 3000}) },
			Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 1, UnitType: "a"},
			want{[]Item{{ProductID: "a", Quantity: 3, Amount: 4500, InitialQuantity: 2, InitialAmount: 3000,
				DiscountQuantity: 1, DiscountAmount: 1500, AppliedDiscountAmount: 1500}}, 4500, 1500, 1, []int64{1500}}},
		{"new: catalog price fills an unknown line price",
			func(t *testing.T) *Order { return mustOrder(t, nil, Item{ProductID: "a"}) },
			Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 1, UnitType: "a", UnitPrice: 700},
			want{[]Item{{ProductID: "a", Quantity: 1, Price: 700, Amount: 700, DiscountQuantity: 1, DiscountAmount: 700,
				AppliedDiscountAmount: 700}}, 700, 700, 1, []int64{700}}},
		{"many: existing and new lines in order",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("a", 1, 100)) },
			Discount{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{
				{UnitOff: 1, UnitType: "a"}, {UnitOff: 2, UnitType: "b", Effect: EffectAddNewItems, Price: 50},
				{UnitOff: 1, UnitType: "a", Effect: EffectAddNewItems}}},
			want{[]Item{{ProductID: "a", Quantity: 2, Price: 100, Amount: 200, InitialQuantity: 1, InitialAmount: 100,
				DiscountQuantity: 2, DiscountAmount: 200, AppliedDiscountAmount: 200},
				{ProductID: "b", Quantity: 2, Price: 50, Amount: 100, DiscountQuantity: 2, DiscountAmount: 100,
					AppliedDiscountAmount: 100, Added: true}}, 300, 300, 3, []int64{200, 100}}},
		{"zero units: nothing added",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("a", 1, 100)) },
			Discount{Type: TypeUnit, UnitOff: 0, UnitType: "b"},
			want{[]Item{{ProductID: "a", Quantity: 1, Price: 100, Amount: 100, InitialQuantity: 1, InitialAmount: 100}},
				100, 0, 0, []int64{0}}},
		{"aggregated limit caps free units",
			func(t *testing.T) *Order { return mustOrder(t, nil, line("jacket", 0, 29900)) },
			Discount{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 3, UnitType: "jacket", AggregatedAmountLimit: 50000},
			want{[]Item{{ProductID: "jacket", Quantity: 3, Price: 29900, Amount: 89700, DiscountQuantity: 3,
				DiscountAmount: 50000, AppliedDiscountAmount: 50000}}, 89700, 50000, 3, []int64{50000}}},
		{"order amount below the lines caps the unit discount",
			func(t *testing.T) *Order { return mustOrder(t, ptr(100), line("a", 1, 500)) },
			Discount{Type: TypeUnit, UnitOff: 1, UnitType: "a"},
			want{[]Item{{ProductID: "a", Quantity: 1, Price: 500, Amount: 500, InitialQuantity: 1, InitialAmount: 500,
				DiscountQuantity: 1, DiscountAmount: 100, AppliedDiscountAmount: 100}}, 100, 100, 0, []int64{100}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.order(t)
			res := mustApply(t, o, tc.d, nil)
			got := want{o.Items, o.Amount, res.Total, res.AddedUnits, res.ItemDiscounts}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestUnitMissingTwice: units already given free are not counted as present.
func TestUnitMissingTwice(t *testing.T) {
	o := mustOrder(t, nil, line("a", 1, 500))
	d := Discount{Type: TypeUnit, UnitOff: 1, UnitType: "a"}
	r1 := mustApply(t, o, d, nil)
	r2 := mustApply(t, o, d, nil)
	if r1.AddedUnits != 0 || r2.AddedUnits != 1 || r1.Total != 500 || r2.Total != 500 {
		t.Errorf("results %+v, %+v", r1, r2)
	}
	it := o.Items[0]
	if it.Quantity != 2 || it.DiscountQuantity != 2 || it.Amount != 1000 || it.DiscountAmount != 1000 || o.TotalAmount() != 0 {
		t.Errorf("line %+v, total %d", it, o.TotalAmount())
	}
}

func TestUnitOverflowLeavesOrderUnchanged(t *testing.T) {
	o := mustOrder(t, nil, line("a", 1, MaxAmount))
	before := o.Clone()
	for _, d := range []Discount{
		{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 1, UnitType: "a"},
		{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "b"}, {UnitOff: MaxAmount, UnitType: "a", Effect: EffectAddNewItems}}},
		{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: MaxAmount, UnitType: "c", UnitPrice: MaxAmount},
	} {
		_, err := o.Apply(d, nil)
		if err == nil || !errors.Is(err, ErrInvalidOrder) || !strings.Contains(err.Error(), "would exceed the maximum") {
			t.Errorf("Apply(%+v) error = %v", d, err)
		}
		if !reflect.DeepEqual(o, before) {
			t.Errorf("Apply(%+v) changed the order on error: %+v", d, o)
		}
	}
	_, err := o.Apply(Discount{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "b"}, {UnitOff: 1, UnitType: "a", Effect: EffectAddNewItems}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "units[1]") {
		t.Errorf("ADD_MANY error should name the unit: %v", err)
	}
}

// TestUnitIgnoresEligible: UNIT effects target unit_type whatever the eligibility.
func TestUnitIgnoresEligible(t *testing.T) {
	o := mustOrder(t, nil, line("a", 1, 500))
	res := mustApply(t, o, Discount{Type: TypeUnit, UnitOff: 1, UnitType: "a"}, func(Item) bool { return false })
	if !slices.Equal(res.ItemDiscounts, []int64{500}) {
		t.Errorf("result %+v", res)
	}
}
