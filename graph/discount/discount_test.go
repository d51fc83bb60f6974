package discount

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	ok := []Discount{
		{Type: TypeAmount, AmountOff: 100},
		{Type: TypeAmount, Effect: EffectApplyToItemsProportionallyByQuantity},
		{Type: TypePercent, PercentOff: 100, AmountLimit: 5},
		{Type: TypePercent, Effect: EffectApplyToItems, PercentOff: 12.5},
		{Type: TypeFixed, Effect: EffectApplyToItems, FixedAmount: 0},
		{Type: TypeUnit, UnitOff: 1, UnitType: "prod_5h1pp1ng"},
		{Type: TypeUnit, Effect: EffectAddNewItems, UnitOff: 0, UnitType: "x"},
		{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "a"}, {UnitOff: 2, UnitType: "b", Effect: EffectAddNewItems}}},
		{Type: TypeAmount, AmountOff: 5, FixedAmount: -1}, // unused fields are ignored
	}
	for _, d := range ok {
		if err := d.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", d, err)
		}
	}
	bad := []struct {
		d    Discount
		want string
	}{
		{Discount{Type: "SHIPPING"}, `unknown type "SHIPPING"`},
		{Discount{}, `unknown type ""`},
		{Discount{Type: TypePercent, Effect: EffectApplyToItemsProportionally}, `effect "APPLY_TO_ITEMS_PROPORTIONALLY" is not allowed for type PERCENT`},
		{Discount{Type: TypeFixed, Effect: EffectApplyToItemsByQuantity}, "not allowed for type FIXED"},
		{Discount{Type: TypeAmount, Effect: EffectAddNewItems}, "not allowed for type AMOUNT"},
		{Discount{Type: TypeUnit, Effect: EffectApplyToOrder, UnitType: "x"}, "not allowed for type UNIT"},
		{Discount{Type: TypeAmount, Effect: "NOPE"}, `effect "NOPE"`},
		{Discount{Type: TypeAmount, AmountOff: -1}, "amount_off must not be negative"},
		{Discount{Type: TypeAmount, AmountOff: MaxAmount + 1}, "amount_off must not exceed"},
		{Discount{Type: TypeAmount, AggregatedAmountLimit: -1}, "aggregated_amount_limit must not be negative"},
		{Discount{Type: TypePercent, PercentOff: 100.5}, "percent_off must be between 0 and 100"},
		{Discount{Type: TypePercent, PercentOff: -0.1}, "percent_off must be between 0 and 100"},
		{Discount{Type: TypePercent, PercentOff: math.NaN()}, "percent_off must be between 0 and 100"},
		{Discount{Type: TypePercent, PercentOff: 5, AmountLimit: -3}, "amount_limit must not be negative"},
		{Discount{Type: TypeFixed, FixedAmount: -3}, "fixed_amount must not be negative"},
		{Discount{Type: TypeUnit, UnitOff: 1}, "unit_type must not be empty"},
		{Discount{Type: TypeUnit, UnitOff: -1, UnitType: "x"}, "unit_off must not be negative"},
		{Discount{Type: TypeUnit, UnitOff: 1, UnitType: "x", UnitPrice: -1}, "unit_price must not be negative"},
		{Discount{Type: TypeUnit, Effect: EffectAddManyItems}, "units must not be empty"},
		{Discount{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "a"}, {UnitOff: 1}}}, "units[1].unit_type must not be empty"},
		{Discount{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "a", Effect: EffectAddManyItems}}}, "units[0].effect must be"},
		{Discount{Type: TypeUnit, Effect: EffectAddManyItems, Units: []Unit{{UnitOff: 1, UnitType: "a", Price: -2}}}, "units[0].price must not be negative"},
	}
	for _, tc := range bad {
		err := tc.d.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalidDiscount) {
			t.Errorf("Validate(%+v) = %v, want an ErrInvalidDiscount containing %q", tc.d, err, tc.want)
		}
		o := cart3(t)
		if _, err := o.Apply(tc.d, nil); err == nil {
			t.Errorf("Apply(%+v) accepted an invalid discount", tc.d)
		}
	}
}

func TestEffectOrDefault(t *testing.T) {
	for typ, want := range map[Type]Effect{TypeAmount: EffectApplyToOrder, TypePercent: EffectApplyToOrder,
		TypeFixed: EffectApplyToOrder, TypeUnit: EffectAddMissingItems, "X": ""} {
		if got := (Discount{Type: typ}).EffectOrDefault(); got != want {
			t.Errorf("%s: default effect %q, want %q", typ, got, want)
		}
	}
	if got := (Discount{Type: TypeAmount, Effect: EffectApplyToItems}).EffectOrDefault(); got != EffectApplyToItems {
		t.Errorf("explicit effect replaced by %q", got)
	}
}

func TestPercentRounding(t *testing.T) {
	tests := []struct {
		p    float64
		x    int64
		want int64
	}{
		{12.5, 333, 42}, // 41.625
		{10, 6000, 600},
		{0.15, 1000, 2},  // 1.5 exactly: the decimal 0.15, not its binary approximation
		{33.35, 100, 33}, // 33.35
		{2.5, 10, 0},     // 0.25
		{5, 10, 1},       // 0.5 → 1
		{15, 1, 0},       // 0.15
		{100, MaxAmount, MaxAmount},
		{0, 12345, 0},
		{99.99, MaxAmount, 9_999_000_000_000},
		{1.0 / 3, 300, 1},
	}
	for _, tc := range tests {
		if got := newPercent(tc.p).of(tc.x); got != tc.want {
			t.Errorf("%v %% of %d = %d, want %d", tc.p, tc.x, got, tc.want)
		}
	}
}

func TestArith(t *testing.T) {
	if got := mulDivRound(MaxAmount, MaxAmount, MaxAmount); got != MaxAmount {
		t.Errorf("mulDivRound large = %d", got)
	}
	if got := mulDivRound(5, 1, 2); got != 3 {
		t.Errorf("mulDivRound(5,1,2) = %d, want 3", got)
	}
	if got := mulDivRound(7, 1, 3); got != 2 {
		t.Errorf("mulDivRound(7,1,3) = %d, want 2", got)
	}
	if got, ok := mulSat(MaxAmount, MaxAmount); ok || got != math.MaxInt64 {
		t.Errorf("mulSat overflow = %d, %v", got, ok)
	}
	if got := mulCap(MaxAmount, MaxAmount, 7); got != 7 {
		t.Errorf("mulCap = %d", got)
	}
	if !mulLess(MaxAmount, MaxAmount-1, MaxAmount, MaxAmount) || mulLess(2, 3, 3, 2) {
		t.Error("mulLess wrong")
	}
}
