package discount

import (
	"fmt"
	"slices"
)

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
	// Targets says, per applicable_to target of an item effect (one
	// implicit target when the discount has none), what it covered.
	Targets []TargetResult
}

// Apply applies d to o, mutating o (amounts, applied amounts, added lines),
// and returns this discount's share.
//
// The base of every calculation is what is left after earlier discounts of
// the same calculation (order: R = o.Remaining(); line i: r_i = Amount_i −
// DiscountAmount_i), so stacked discounts never exceed what is left. eligible
// selects the lines of item effects; UNIT effects ignore it. On error (an
// invalid definition, an order violating its invariants, or added units that
// would exceed MaxAmount) o is left unchanged. The lines o had before are
// never changed in place: Apply gives o new lines when it changes them.
func (o *Order) Apply(d Discount, eligible Eligible) (Result, error) {
	if err := d.Validate(); err != nil {
		return Result{}, err
	}
	if err := o.Check(); err != nil {
		return Result{}, err
	}
	// Copy on write: the lines are copied only when the effect changes
	// them, so o's lines are never changed in place (a copy of an Order
	// value is a snapshot of it; Stack relies on that).
	c := *o
	if d.Type == TypeUnit || d.EffectOrDefault() != EffectApplyToOrder {
		c.Items = slices.Clone(o.Items)
	}
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
	*o = c
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
	shares, targets := o.itemShares(d, eligible)
	res.Targets = targets
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
// the line's remaining amount, and what each target covered; lines no
// target picks get 0. Without targets every eligible line is picked whole.
func (o *Order) itemShares(d Discount, eligible Eligible) ([]int64, []TargetResult) {
	targets := d.Targets
	if len(targets) == 0 {
		targets = []Target{{}}
	}
	sel := o.selectTargets(targets, eligible) // targets.go
	n := len(o.Items)
	shares := make([]int64, n)
	base := make([]int64, n) // the part of r_i the picked units stand for
	for i, it := range o.Items {
		if u := sel.units[i]; u > 0 {
			if q := it.units(); u >= q {
				base[i] = it.Subtotal()
			} else {
				base[i] = mulDivRound(it.Subtotal(), u, q)
			}
		}
	}
	switch (calc{d.Type, d.EffectOrDefault()}) {
	case calc{TypeAmount, EffectApplyToItems}:
		for i, b := range base {
			shares[i] = min(d.AmountOff, b)
		}
	case calc{TypeAmount, EffectApplyToItemsByQuantity}:
		for i, b := range base {
			shares[i] = mulCap(d.AmountOff, sel.units[i], b)
		}
	case calc{TypeAmount, EffectApplyToItemsProportionally}:
		shares = Split(min(d.AmountOff, sum(base)), base, base)
	case calc{TypeAmount, EffectApplyToItemsProportionallyByQuantity}:
		shares = Split(min(d.AmountOff, sum(base)), sel.units, base)
	case calc{TypePercent, EffectApplyToItems}:
		p := newPercent(d.PercentOff)
		for i, b := range base {
			shares[i] = p.of(b)
			if d.AmountLimit > 0 {
				shares[i] = min(shares[i], d.AmountLimit) // amount_limit caps each line (reference §7.4)
			}
		}
	case calc{TypeFixed, EffectApplyToItems}:
		for i, b := range base {
			if k := sel.owner[i]; k >= 0 {
				if price, ok := targets[k].newPrice(o.linePrice(i), d); ok { // price_formula.go
					shares[i] = o.fixedShare(i, price, sel.units[i], b)
				}
			}
		}
	default: // unreachable after Validate
		panic(fmt.Sprintf("discount: no item calculation for %s/%s", d.Type, d.EffectOrDefault()))
	}
	limitTargets(shares, sel.owner, targets)
	return shares, sel.results
}

// fixedShare is FIXED/APPLY_TO_ITEMS on line i: its u picked units cost
// price each (Target.newPrice). A whole line becomes price × units
// (max(0, r_i − price × u)); part of a line gets max(0, p_i − price) per
// unit, within the part's base.
func (o *Order) fixedShare(i int, price, u, base int64) int64 {
	it := o.Items[i]
	if u >= it.units() {
		return max(it.Subtotal()-mulCap(price, u, it.Subtotal()), 0)
	}
	return mulCap(max(o.linePrice(i)-price, 0), u, base)
}

// limitTargets applies the entries' amount_limit (per line) and
// aggregated_amount_limit (over the entry's lines, scaled down by an
// exact split).
func limitTargets(shares []int64, owner []int, targets []Target) {
	for k, t := range targets {
		if t.AmountLimit == 0 && t.AggregatedAmountLimit == 0 {
			continue
		}
		part := make([]int64, len(shares))
		for i, s := range shares {
			if owner[i] == k {
				part[i] = s
				if t.AmountLimit > 0 {
					part[i] = min(s, t.AmountLimit)
				}
			}
		}
		if t.AggregatedAmountLimit > 0 && sum(part) > t.AggregatedAmountLimit {
			part = Split(t.AggregatedAmountLimit, part, part)
		}
		for i := range shares {
			if owner[i] == k {
				shares[i] = part[i]
			}
		}
	}
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
