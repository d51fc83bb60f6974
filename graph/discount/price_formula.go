package discount

// newPrice is a FIXED/APPLY_TO_ITEMS target's new unit price for a line
// whose unit price is linePrice: the entry's price_formula when it has a
// value (reference: "price … becomes the fallback value" of
// price_formula), else the entry's price, else the discount's
// fixed_amount; ok is false when there is none (a FIXED discount without
// fixed_amount leaves the line undiscounted). A negative price counts as
// 0, a price above the line's as the line's (nothing taken off).
func (t Target) newPrice(linePrice int64, d Discount) (price int64, ok bool) {
	switch p, byFormula := t.formulaPrice(linePrice); {
	case byFormula:
		price, ok = p, true
	case t.Price != nil:
		price, ok = *t.Price, true
	default:
		price, ok = d.FixedAmount, !d.NoFixedAmount
	}
	return max(0, price), ok
}

// formulaPrice is PriceOf's value (ok false: no formula, or no value).
func (t Target) formulaPrice(linePrice int64) (int64, bool) {
	if t.PriceOf == nil {
		return 0, false
	}
	return t.PriceOf(linePrice)
}
