package discount

import (
	"reflect"
	"testing"
)

// TestUnitBudgetCaps: what is left of an entry's persistent unit budgets
// caps its discounted units (0 is a cap: nothing), per entry and per
// group (product of a collection), and the result reports the units
// discounted per line.
func TestUnitBudgetCaps(t *testing.T) {
	byQuantity := func(targets ...Target) Discount {
		return Discount{Type: TypeAmount, Effect: EffectApplyToItemsByQuantity, AmountOff: 100, Targets: targets}
	}
	group := func(it Item) string { return it.ProductID }
	tests := []struct {
		name      string
		d         Discount
		want      []int64
		wantUnits []int64
	}{
		{"budget 3 over the entry", byQuantity(Target{Match: adventure.Match, HasBudget: true, Budget: 3}),
			[]int64{200, 100, 0, 0}, []int64{2, 1}},
		{"exhausted budget", byQuantity(Target{Match: adventure.Match, HasBudget: true, Budget: 0}),
			[]int64{0, 0, 0, 0}, nil},
		{"budget with aggregated_quantity_limit: the smaller", byQuantity(Target{Match: adventure.Match,
			AggregatedQuantityLimit: 2, HasBudget: true, Budget: 5}), []int64{200, 0, 0, 0}, []int64{2}},
		{"per group: 1 each, poster none", byQuantity(Target{Match: adventure.Match, GroupOf: group,
			GroupBudget: map[string]int64{"mug": 1, "poster": 0, "tshirt": 1}}), []int64{100, 0, 100, 0}, []int64{1, 1}},
		{"no budget", byQuantity(adventure), []int64{200, 300, 300, 0}, []int64{2, 3, 3}},
	}
	for _, tt := range tests {
		o := adventureCart(t)
		res := mustApply(t, o, tt.d, nil)
		if got := lineDiscounts(o); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: lines %v, want %v", tt.name, got, tt.want)
		}
		if got := res.Targets[0].Quantities; !reflect.DeepEqual(got, tt.wantUnits) {
			t.Errorf("%s: units %v, want %v", tt.name, got, tt.wantUnits)
		}
	}
}
