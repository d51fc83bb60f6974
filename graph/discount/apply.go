package discount

import "fmt"

// Eligible reports whether a discount with an item effect applies to an item.
// A nil Eligible accepts every item.
type Eligible func(Item) bool

// accepts reports whether e accepts it (nil accepts everything).
func (e Eligible) accepts(it Item) bool { return e == nil || e(it) }

// Result is what one Apply gave.
type Result struct {
	OrderDiscount int64   // order-level part (APPLY_TO_ORDER)
	ItemDiscounts []int64 // per line, index-aligned with o.Items after the apply (lines may have been added)
	Total         int64   // OrderDiscount + Σ ItemDiscounts (what this redeemable gave)
	AddedUnits    int64   // units added to the cart by UNIT effects
}

// Apply applies d to o, mutating o (amounts, applied amounts, added lines),
// and returns this discount's share.
//
// The base of every calculation is what is left after earlier discounts of
// the same calculation (order: R = o.Remaining(); line i: r_i = Amount_i −
// DiscountAmount_i), so stacked discounts never exceed what is left. eligible
// selects the lines of item effects; UNIT effects ignore it. On error (an
// invalid definition, an order violating its invariants, or added units that
// would exceed MaxAmount) o is left unchanged.
func (o *Order) Apply(d Discount, eligible Eligible) (Result, error) {
	if err := d.Validate(); err != nil {
		return Result{}, err
	}
	if err := o.Check(); err != nil {
		return Result{}, err
	}
	c := o.Clone()
	var res Result
	if d.Type == TypeUnit {
		var err error
		if res, err = c.applyUnits(d.units()); err != nil {
			return Result{}, err
		}
	} else {
		res = c.applyValue(d, eligible)
	}
	c.limitTotal(&res, d.AggregatedAmountLimit)
	*o = *c
	return res, nil
}

// applyValue applies an AMOUNT, PERCENT or FIXED discount.
func (o *Order) applyValue(d Discount, eligible Eligible) Result {
	res := Result{ItemDiscounts: make([]int64, len(o.Items))}
	r := o.Remaining()
	if d.EffectOrDefault() == EffectApplyToOrder {
		var off int64
		switch d.Type {
		case TypeAmount:
			off = min(d.AmountOff, r)
		case TypePercent:
			off = newPercent(d.PercentOff).of(r)
			if d.AmountLimit > 0 {
				off = min(off, d.AmountLimit)
			}
		case TypeFixed:
			off = max(r-d.FixedAmount, 0)
		}
		o.DiscountAmount += off
		o.AppliedDiscountAmount += off
		res.OrderDiscount, res.Total = off, off
		return res
	}
	shares := o.itemShares(d, eligible)
	if s := sum(shares); s > r {
		// The order amount is smaller than the lines: scale down to what is left.
		shares = Split(r, shares, shares)
	}
	for i, s := range shares {
		o.Items[i].DiscountAmount += s
		o.Items[i].AppliedDiscountAmount += s
		res.ItemDiscounts[i] = s
		res.Total += s
	}
	return res
}

// calc is a type/effect pair.
type calc struct {
	t Type
	e Effect
}

// itemShares computes the per-line discount of an item effect, each within
// the line's remaining amount; lines not eligible get 0.
func (o *Order) itemShares(d Discount, eligible Eligible) []int64 {
	n := len(o.Items)
	shares := make([]int64, n)
	rem := make([]int64, n) // r_i of eligible lines, 0 for the others
	units := make([]int64, n)
	for i, it := range o.Items {
		if eligible.accepts(it) {
			rem[i], units[i] = it.Subtotal(), it.units()
		}
	}
	switch (calc{d.Type, d.EffectOrDefault()}) {
	case calc{TypeAmount, EffectApplyToItems}:
		for i, r := range rem {
			shares[i] = min(d.AmountOff, r)
		}
	case calc{TypeAmount, EffectApplyToItemsByQuantity}:
		for i, r := range rem {
			shares[i] = mulCap(d.AmountOff, units[i], r)
		}
	case calc{TypeAmount, EffectApplyToItemsProportionally}:
		shares = Split(min(d.AmountOff, sum(rem)), rem, rem)
	case calc{TypeAmount, EffectApplyToItemsProportionallyByQuantity}:
		shares = Split(min(d.AmountOff, sum(rem)), units, rem)
	case calc{TypePercent, EffectApplyToItems}:
		p := newPercent(d.PercentOff)
		for i, r := range rem {
			shares[i] = p.of(r)
		}
		if d.AmountLimit > 0 && sum(shares) > d.AmountLimit {
			shares = Split(d.AmountLimit, shares, shares)
		}
	case calc{TypeFixed, EffectApplyToItems}:
		for i, r := range rem {
			shares[i] = max(r-mulCap(d.FixedAmount, units[i], r), 0)
		}
	default: // unreachable after Validate
		panic(fmt.Sprintf("discount: no item calculation for %s/%s", d.Type, d.EffectOrDefault()))
	}
	return shares
}

// limitTotal caps res.Total at limit (> 0), taking the excess back from o:
// first from the order-level part, then from the line shares, which are
// scaled down by an exact proportional split.
func (o *Order) limitTotal(res *Result, limit int64) {
	if limit <= 0 || res.Total <= limit {
		return
	}
	excess := res.Total - limit
	cut := min(excess, res.OrderDiscount)
	res.OrderDiscount -= cut
	o.DiscountAmount -= cut
	o.AppliedDiscountAmount -= cut
	excess -= cut
	if excess > 0 {
		kept := Split(sum(res.ItemDiscounts)-excess, res.ItemDiscounts, res.ItemDiscounts)
		for i, k := range kept {
			diff := res.ItemDiscounts[i] - k
			o.Items[i].DiscountAmount -= diff
			o.Items[i].AppliedDiscountAmount -= diff
			res.ItemDiscounts[i] = k
		}
	}
	res.Total = limit
}
