package redemption

import (
	"maps"
	"math"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/formula"
)

// formulaCandidate is s's stacking candidate with its discount's formulas
// (amount_off_formula, percent_off_formula, unit_off_formula,
// fixed_amount_formula) evaluated on the request (docs/promotions.md
// "Discount formulas"). A formula without a value for the request leaves
// the static value (the reference's fallback).
func (e *evaluation) formulaCandidate(s *redeemableState) discount.Candidate {
	c := s.candidate()
	var def *jsonfield.Discount
	switch {
	case s.tier != nil:
		def = s.tier.Discount
	case s.voucher != nil && s.voucher.Type == jsonfield.VoucherTypeDiscount:
		def = s.voucher.Discount
	}
	if c.Discount == nil || def == nil || !HasFormula(def) {
		return c
	}
	d := *c.Discount
	env := e.formulaEnv()
	value := func(src *string) (float64, bool) {
		if src == nil {
			return 0, false
		}
		x, err := formula.Parse(*src) // checked when stored
		if err != nil {
			return 0, false
		}
		n, err := x.Number(env)
		return n, err == nil
	}
	if n, ok := value(def.AmountOffFormula); ok && d.Type == discount.TypeAmount {
		d.AmountOff = cents(n)
	}
	if n, ok := value(def.PercentOffFormula); ok && d.Type == discount.TypePercent {
		d.PercentOff = math.Min(100, math.Max(0, n))
	}
	if n, ok := value(def.FixedAmountFormula); ok && d.Type == discount.TypeFixed {
		d.FixedAmount, d.NoFixedAmount = cents(n), false
	}
	if n, ok := value(def.UnitOffFormula); ok && d.Type == discount.TypeUnit {
		d.UnitOff = max(0, min(int64(math.Round(n)), discount.MaxAmount))
	}
	c.Discount = &d
	return c
}

// HasFormula says whether a discount definition has a formula.
func HasFormula(d *jsonfield.Discount) bool {
	return d.AmountOffFormula != nil || d.PercentOffFormula != nil || d.FixedAmountFormula != nil || d.UnitOffFormula != nil
}

// markDynamic sets is_dynamic, always present in a result: true when a
// formula computes the discount (one of its own, or the price_formula of
// an applicable_to entry of s's rules for a FIXED discount), else as
// stored (false when unset).
func (s *redeemableState) markDynamic(d *jsonfield.Discount) {
	switch {
	case HasFormula(d) || (d.Type == jsonfield.DiscountTypeFixed && s.hasPriceFormula()):
		d.IsDynamic = new(bool)
		*d.IsDynamic = true
	case d.IsDynamic == nil:
		d.IsDynamic = new(bool)
	}
}

// hasPriceFormula says whether an applicable_to entry of s's rules
// computes its price by a formula (price_formulas.go).
func (s *redeemableState) hasPriceFormula() bool {
	for _, en := range s.includedEntries() {
		if en.PriceFormula != "" {
			return true
		}
	}
	return false
}

// cents turns a formula's amount in main units into cents (half away
// from zero), kept within 0..MaxAmount.
func cents(n float64) int64 {
	c := math.Round(n * 100)
	return int64(math.Max(0, math.Min(c, float64(discount.MaxAmount))))
}

// formulaEnv is what formulas read: the order before this request's
// discounts (amounts in main units), its lines, and the customer's,
// order's and redemption's metadata (the request's customer metadata
// over the stored, as rules read it).
func (e *evaluation) formulaEnv() formula.Env {
	env := formula.Env{Vars: map[string]float64{}, Metadata: map[string]map[string]any{"redemption": e.req.metadata}}
	if o := e.req.order; o != nil {
		env.Metadata["order"] = o.Metadata
		if o.Amount != nil || len(o.Items) > 0 {
			env.Vars["ORDER_AMOUNT"] = float64(e.order.Amount) / 100
		}
		var quantity int64
		for _, it := range e.order.Items {
			quantity += it.Quantity
		}
		env.Vars["ORDER_ITEMS_COUNT"], env.Vars["ORDER_ITEMS_QUANTITY"] = float64(len(e.order.Items)), float64(quantity)
	}
	if e.customer != nil {
		merged := maps.Clone(e.customer.Metadata)
		if merged == nil {
			merged = map[string]any{}
		}
		if in := e.req.customer; in != nil {
			maps.Copy(merged, in.Metadata)
		}
		env.Metadata["customer"] = merged
	} else if in := e.req.customer; in != nil {
		env.Metadata["customer"] = in.Metadata
	}
	return env
}
