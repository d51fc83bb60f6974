package discount

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// pool are the product ids random carts and discounts use; p6 and p7 are never in a cart.
var pool = []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}

// randomCart builds a random order, sometimes with earlier discounts or an
// order amount that differs from its lines.
func randomCart(t testing.TB, rng *rand.Rand) *Order {
	n := rng.IntN(7)
	items := make([]Item, n)
	for i := range items {
		it := Item{ProductID: pool[rng.IntN(6)]}
		if rng.IntN(4) == 0 {
			it.SKUID = "sku_" + it.ProductID
		}
		switch rng.IntN(5) {
		case 0: // amount only
			it.Amount = rng.Int64N(20000)
		case 1: // price without quantity
			it.Price = rng.Int64N(5000)
		case 2: // everything given, not necessarily consistent
			it.Quantity, it.Price = rng.Int64N(5)+1, rng.Int64N(5000)
			it.Amount = it.Price*it.Quantity + rng.Int64N(500)
		default:
			it.Quantity, it.Price = rng.Int64N(6)+1, rng.Int64N(5000)
		}
		items[i] = it
	}
	var amount *int64
	if rng.IntN(5) == 0 {
		amount = ptr(rng.Int64N(40000))
	}
	o, err := NewOrder(amount, items)
	if err != nil {
		t.Fatalf("NewOrder: %v", err)
	}
	if rng.IntN(6) == 0 && len(o.Items) > 0 { // an earlier item discount
		i := rng.IntN(len(o.Items))
		o.Items[i].DiscountAmount = min(rng.Int64N(o.Items[i].Amount+1), o.Remaining())
	}
	if rng.IntN(6) == 0 {
		if err := o.SetPreviousDiscount(rng.Int64N(o.Remaining() + 1)); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// combos are all type/effect pairs.
var combos = []calc{
	{TypeAmount, EffectApplyToOrder}, {TypeAmount, ""}, {TypeAmount, EffectApplyToItems},
	{TypeAmount, EffectApplyToItemsByQuantity}, {TypeAmount, EffectApplyToItemsProportionally},
	{TypeAmount, EffectApplyToItemsProportionallyByQuantity},
	{TypePercent, EffectApplyToOrder}, {TypePercent, EffectApplyToItems},
	{TypeFixed, EffectApplyToOrder}, {TypeFixed, EffectApplyToItems},
	{TypeUnit, EffectAddMissingItems}, {TypeUnit, EffectAddNewItems}, {TypeUnit, EffectAddManyItems},
}

// randomDiscount returns a random valid discount; percents have at most two decimals.
func randomDiscount(rng *rand.Rand) Discount {
	c := combos[rng.IntN(len(combos))]
	d := Discount{Type: c.t, Effect: c.e}
	amount := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return rng.Int64N(100000)
		}
		return rng.Int64N(3000)
	}
	unit := func() Unit {
		u := Unit{UnitOff: rng.Int64N(4), UnitType: pool[rng.IntN(len(pool))]}
		if rng.IntN(2) == 0 {
			u.Effect = EffectAddNewItems
		}
		if rng.IntN(3) == 0 {
			u.Price = rng.Int64N(3000)
		}
		return u
	}
	switch c.t {
	case TypeAmount:
		d.AmountOff = amount()
	case TypePercent:
		d.PercentOff = float64(rng.IntN(10001)) / 100
		if rng.IntN(3) == 0 {
			d.AmountLimit = amount()
		}
	case TypeFixed:
		d.FixedAmount = amount()
	case TypeUnit:
		if c.e == EffectAddManyItems {
			for range rng.IntN(3) + 1 {
				d.Units = append(d.Units, unit())
			}
		} else {
			u := unit()
			d.UnitOff, d.UnitType, d.UnitPrice = u.UnitOff, u.UnitType, u.Price
		}
	}
	if rng.IntN(4) == 0 {
		d.AggregatedAmountLimit = amount()
	}
	if c.t != TypeUnit && d.EffectOrDefault() != EffectApplyToOrder && rng.IntN(3) == 0 {
		picks := []Pick{PickEvery, PickCheapest, PickMostExpensive, PickFromCheapest, PickFromMostExpensive}
		for range rng.IntN(2) + 1 {
			t := Target{Match: randomEligible(rng), Pick: picks[rng.IntN(len(picks))], Units: rng.IntN(2) == 0,
				SkipInitially: rng.Int64N(3), Repeat: rng.Int64N(3)}
			if rng.IntN(3) == 0 {
				t.QuantityLimit, t.AggregatedQuantityLimit = rng.Int64N(4), rng.Int64N(6)
			}
			if rng.IntN(3) == 0 {
				t.AmountLimit, t.AggregatedAmountLimit = amount(), amount()
			}
			if rng.IntN(3) == 0 {
				t.Price = ptr(rng.Int64N(3000))
			}
			d.Targets = append(d.Targets, t)
		}
	}
	return d
}

// randomEligible accepts a random subset of the pool, or everything (nil).
func randomEligible(rng *rand.Rand) Eligible {
	if rng.IntN(3) == 0 {
		return nil
	}
	var ids []string
	for _, id := range pool {
		if rng.IntN(2) == 0 {
			ids = append(ids, id)
		}
	}
	return only(ids...)
}

func TestApplyProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(2000, 26))
	for cart := range 2000 {
		o := randomCart(t, rng)
		start := o.Clone()
		var given int64
		for k := range rng.IntN(5) + 1 {
			d, el := randomDiscount(rng), randomEligible(rng)
			pre := o.Clone()
			res, err := o.Apply(d, el)
			if err != nil {
				t.Fatalf("cart %d step %d: Apply(%+v): %v\norder %+v", cart, k, d, err, pre)
			}
			if err := checkApply(pre, o, d, el, res); err != nil {
				t.Fatalf("cart %d step %d: %v\ndiscount %+v\nbefore %+v\nafter  %+v\nresult %+v", cart, k, err, d, pre, o, res)
			}
			given += res.Total
		}
		if o.TotalAppliedDiscountAmount()-start.TotalAppliedDiscountAmount() != given {
			t.Fatalf("cart %d: applied %d, results sum to %d", cart, o.TotalAppliedDiscountAmount(), given)
		}
		if o.ItemsAppliedDiscountAmount() != sumApplied(o) {
			t.Fatalf("cart %d: ItemsAppliedDiscountAmount mismatch", cart)
		}
		if !slices.EqualFunc(o.Items[:len(start.Items)], start.Items, func(a, b Item) bool {
			return a.ProductID == b.ProductID && a.SKUID == b.SKUID
		}) {
			t.Fatalf("cart %d: lines reordered", cart)
		}
	}
}

// sumApplied sums the lines' AppliedDiscountAmount by hand.
func sumApplied(o *Order) int64 {
	var s int64
	for _, it := range o.Items {
		s += it.AppliedDiscountAmount
	}
	return s
}
