package discount

import "math"

// PerBundles is d for n identified bundles (reference §7.6; validations.json
// Bundle.quantity: "the multiplier of the discount for AMOUNT, PERCENT, and
// UNIT discount types"): amount_off, percent_off (at most 100) and unit_off
// (each of units[] for ADD_MANY_ITEMS) are multiplied by n, within
// MaxAmount. FIXED (a new price) is not multiplied; caps (amount_limit,
// aggregated_amount_limit) and applicable_to targets stay as defined.
// n = 0 (no complete bundle) takes nothing off.
func (d Discount) PerBundles(n int64) Discount {
	n = max(0, n)
	times := func(x int64) int64 {
		if x != 0 && n > MaxAmount/x {
			return MaxAmount
		}
		return x * n
	}
	switch d.Type {
	case TypeAmount:
		d.AmountOff = times(d.AmountOff)
	case TypePercent:
		d.PercentOff = math.Min(100, d.PercentOff*float64(n))
	case TypeUnit:
		d.UnitOff = times(d.UnitOff)
		if len(d.Units) > 0 {
			units := make([]Unit, len(d.Units))
			for i, u := range d.Units {
				u.UnitOff = times(u.UnitOff)
				units[i] = u
			}
			d.Units = units
		}
	}
	return d
}
