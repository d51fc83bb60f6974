package redemption

import (
	"maps"
	"slices"

	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/formula"
)

// withPriceFormulas gives each applicable_to entry with a price_formula
// (FIXED/APPLY_TO_ITEMS: the new unit price) its per-line price: the
// formula evaluated on the request (formulaEnv) with ORDER_ITEM_PRICE the
// line's unit price in main units, in cents; a formula without a value
// leaves the entry's price, then fixed_amount (the reference's fallback;
// discount.Target.PriceOf).
func (e *evaluation) withPriceFormulas(s *redeemableState, c discount.Candidate) discount.Candidate {
	if c.Discount == nil || c.Discount.Type != discount.TypeFixed || len(c.Discount.Targets) == 0 {
		return c
	}
	entries := s.includedEntries()
	if len(entries) != len(c.Discount.Targets) {
		return c
	}
	d := *c.Discount
	d.Targets = slices.Clone(d.Targets)
	var env *formula.Env
	for k, en := range entries {
		if en.PriceFormula == "" {
			continue
		}
		x, err := formula.Parse(en.PriceFormula) // checked when stored
		if err != nil {
			continue
		}
		if env == nil {
			base := e.formulaEnv() // formulas.go
			env = &base
		}
		base := *env
		d.Targets[k].PriceOf = func(linePrice int64) (int64, bool) {
			line := base
			line.Vars = maps.Clone(base.Vars)
			line.Vars["ORDER_ITEM_PRICE"] = float64(linePrice) / 100
			n, err := x.Number(line)
			if err != nil {
				return 0, false
			}
			return cents(n), true
		}
	}
	c.Discount = &d
	return c
}
