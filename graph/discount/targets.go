package discount

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// Pick is how an applicable_to entry picks its resources (lines or units).
type Pick string

// Picks (ApplicableToEffect).
const (
	PickEvery             Pick = "APPLY_TO_EVERY"
	PickCheapest          Pick = "APPLY_TO_CHEAPEST"
	PickMostExpensive     Pick = "APPLY_TO_MOST_EXPENSIVE"
	PickFromCheapest      Pick = "APPLY_FROM_CHEAPEST"
	PickFromMostExpensive Pick = "APPLY_FROM_MOST_EXPENSIVE"
)

// MaxListedUnits is the most units (Σ quantity of the order's lines) for
// which TargetResult lists unit numbers; above it Units is nil and
// UnitsLimitExceeded is set (the discount is still computed).
const MaxListedUnits = 1000

// Target is one applicable_to entry of an item effect: the lines it
// matches and how the discount applies to them. A line belongs to the
// first target matching it.
type Target struct {
	Match Eligible // the entry's lines (nil: every line); Apply's eligible still applies
	Pick  Pick     // "" means APPLY_TO_EVERY
	Units bool     // target UNIT: the resources are units (counted across lines after sorting), else lines
	Price *int64   // FIXED: the new unit price (nil: the discount's fixed_amount)
	// PriceOf is the entry's price_formula (nil: none): the new unit
	// price of a line whose unit price is linePrice; ok false (the
	// formula has no value) falls back to Price (price_formula.go).
	PriceOf func(linePrice int64) (price int64, ok bool)

	QuantityLimit           int64 // max discounted units per line (0: none)
	AggregatedQuantityLimit int64 // max discounted units over the entry's lines (0: none)
	AmountLimit             int64 // max discount per line (0: none)
	AggregatedAmountLimit   int64 // max discount over the entry's lines (0: none)
	SkipInitially           int64 // resources left undiscounted first
	Repeat                  int64 // then every Repeat-th resource (0 or 1: all)

	// Budget, when HasBudget, is what is left of the entry's persistent
	// unit budgets (product_*_quantity_limit): at most Budget units over
	// its lines, 0 included (an exhausted budget discounts nothing).
	HasBudget bool
	Budget    int64
	// GroupOf names a line's budget group (the product of a collection
	// entry's line); GroupBudget is what is left per group. A line whose
	// group has no entry is not capped by it.
	GroupOf     func(Item) string
	GroupBudget map[string]int64
}

// TargetResult is what one target covered.
type TargetResult struct {
	Lines              []int       // line indices discounted, in application order (order_item_indices)
	Quantities         []int64     // per entry of Lines, the units discounted on it
	Units              []LineUnits // per line the 1-based unit numbers discounted (nil past MaxListedUnits)
	UnitsLimitExceeded bool        // Units was left out: the order holds more than MaxListedUnits units
}

// LineUnits are the units of one line a target discounted.
type LineUnits struct {
	Index int     // line index
	Units []int64 // 1-based unit numbers within the line
}

// validate checks a target's settings.
func (t Target) validate(i int) error {
	switch t.Pick {
	case "", PickEvery, PickCheapest, PickMostExpensive, PickFromCheapest, PickFromMostExpensive:
	default:
		return fmt.Errorf("%w: targets[%d]: unknown effect %q", ErrInvalidDiscount, i, t.Pick)
	}
	for name, v := range map[string]int64{"quantity_limit": t.QuantityLimit, "aggregated_quantity_limit": t.AggregatedQuantityLimit,
		"amount_limit": t.AmountLimit, "aggregated_amount_limit": t.AggregatedAmountLimit,
		"skip_initially": t.SkipInitially, "repeat": t.Repeat} {
		if err := checkValue(ErrInvalidDiscount, fmt.Sprintf("targets[%d].%s", i, name), v); err != nil {
			return err
		}
	}
	if t.Price != nil {
		return checkValue(ErrInvalidDiscount, fmt.Sprintf("targets[%d].price", i), *t.Price)
	}
	return nil
}

// selection is what the targets picked: per line the discounted units,
// the target owning it (-1: none) and the targets' results.
type selection struct {
	units   []int64
	owner   []int
	results []TargetResult
}

// selectTargets picks, per target, the discounted units of its lines.
func (o *Order) selectTargets(targets []Target, eligible Eligible) selection {
	n := len(o.Items)
	sel := selection{units: make([]int64, n), owner: make([]int, n), results: make([]TargetResult, len(targets))}
	lines := make([][]int, len(targets))
	var totalUnits int64
	for i, it := range o.Items {
		totalUnits += it.units()
		sel.owner[i] = -1
		if !eligible.accepts(it) {
			continue
		}
		for k, t := range targets {
			if t.Match.accepts(it) {
				sel.owner[i] = k
				lines[k] = append(lines[k], i)
				break
			}
		}
	}
	for k, t := range targets {
		order := o.sortLines(lines[k], t.Pick)
		o.pickResources(t, order, sel.units)
		res := &sel.results[k]
		var budget = t.AggregatedQuantityLimit
		left, groups := t.Budget, maps.Clone(t.GroupBudget)
		for _, i := range order {
			u := sel.units[i]
			if t.QuantityLimit > 0 {
				u = min(u, t.QuantityLimit)
			}
			if t.AggregatedQuantityLimit > 0 {
				u = min(u, budget)
				budget -= u
			}
			if t.HasBudget {
				u = min(u, max(left, 0))
				left -= u
			}
			if t.GroupOf != nil {
				if g, ok := groups[t.GroupOf(o.Items[i])]; ok {
					u = min(u, max(g, 0))
					groups[t.GroupOf(o.Items[i])] = g - u
				}
			}
			sel.units[i] = u
			if u > 0 {
				res.Lines = append(res.Lines, i)
				res.Quantities = append(res.Quantities, u)
			}
		}
		res.UnitsLimitExceeded = totalUnits > MaxListedUnits
		if !res.UnitsLimitExceeded {
			res.Units = o.listUnits(t, order, sel.units)
		}
	}
	return sel
}

// sortLines orders a target's lines by unit price for the picks that
// need it (stable: ties keep request order).
func (o *Order) sortLines(lines []int, pick Pick) []int {
	out := slices.Clone(lines)
	switch pick {
	case PickCheapest, PickFromCheapest:
		slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(o.linePrice(a), o.linePrice(b)) })
	case PickMostExpensive, PickFromMostExpensive:
		slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(o.linePrice(b), o.linePrice(a)) })
	}
	return out
}

// linePrice is line i's unit price (unknown: 0).
func (o *Order) linePrice(i int) int64 {
	it := o.Items[i]
	if it.Price > 0 {
		return it.Price
	}
	return mulDivRound(it.Amount, 1, it.units())
}

// pickResources sets units[i] for the target's sorted lines: the
// resources (lines, or units counted across the lines) left after
// skip_initially, then every repeat-th; APPLY_TO_CHEAPEST/MOST_EXPENSIVE
// take only the first resource. O(lines): units are counted, not walked.
func (o *Order) pickResources(t Target, order []int, units []int64) {
	single := t.Pick == PickCheapest || t.Pick == PickMostExpensive
	repeat := max(t.Repeat, 1)
	var start int64 // resources before the current line
	for _, i := range order {
		q := int64(1)
		if t.Units {
			q = o.Items[i].units()
		}
		var picked int64
		switch {
		case single:
			picked = min(max(1-start, 0), q)
		default:
			picked = countPicked(start, q, t.SkipInitially, repeat)
		}
		if !t.Units && picked > 0 {
			picked = o.Items[i].units()
		}
		units[i] = picked
		start += q
	}
}

// countPicked counts the k in [start, start+q) with k ≥ skip and
// (k − skip) divisible by repeat.
func countPicked(start, q, skip, repeat int64) int64 {
	first := max(start, skip)
	if r := (first - skip) % repeat; r != 0 {
		first += repeat - r
	}
	end := start + q
	if first >= end {
		return 0
	}
	return 1 + (end-1-first)/repeat
}

// listUnits lists, per discounted line of the target, the 1-based unit
// numbers discounted: the picked units in order, as many as units[i].
func (o *Order) listUnits(t Target, order []int, units []int64) []LineUnits {
	var out []LineUnits
	repeat := max(t.Repeat, 1)
	var start int64
	for _, i := range order {
		q := o.Items[i].units()
		if units[i] > 0 {
			lu := LineUnits{Index: i}
			for u := int64(1); u <= q && int64(len(lu.Units)) < units[i]; u++ {
				k := start + u - 1
				if !t.Units || t.Pick == PickCheapest || t.Pick == PickMostExpensive ||
					(k >= t.SkipInitially && (k-t.SkipInitially)%repeat == 0) {
					lu.Units = append(lu.Units, u)
				}
			}
			out = append(out, lu)
		}
		if t.Units {
			start += q
		} else {
			start++
		}
	}
	return out
}
