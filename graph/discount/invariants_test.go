package discount

import "fmt"

// expectedTotal is what a non-UNIT discount must give in total on pre:
// the naive amount, then capped by the remaining order amount and the limits.
func expectedTotal(pre *Order, d Discount, el Eligible) int64 {
	r := pre.Remaining()
	pctOf := func(x int64) int64 { // percents are k/100: x×k/10000 half-up
		k := int64(d.PercentOff*100 + 0.5)
		return (x*k*2 + 10000) / 20000
	}
	var naive int64
	if d.EffectOrDefault() == EffectApplyToOrder {
		switch d.Type {
		case TypeAmount:
			naive = d.AmountOff
		case TypePercent:
			naive = pctOf(r)
		case TypeFixed:
			naive = max(r-d.FixedAmount, 0)
		}
	} else {
		var sumR int64
		for _, it := range pre.Items {
			if el != nil && !el(it) {
				continue
			}
			ri, u := it.Amount-it.DiscountAmount, max(it.Quantity, 1)
			sumR += ri
			switch string(d.Type) + "/" + string(d.EffectOrDefault()) {
			case "AMOUNT/APPLY_TO_ITEMS":
				naive += min(d.AmountOff, ri)
			case "AMOUNT/APPLY_TO_ITEMS_BY_QUANTITY":
				naive += min(d.AmountOff*u, ri)
			case "PERCENT/APPLY_TO_ITEMS":
				if d.AmountLimit > 0 { // per line (reference §7.4)
					naive += min(pctOf(ri), d.AmountLimit)
				} else {
					naive += pctOf(ri)
				}
			case "FIXED/APPLY_TO_ITEMS":
				naive += max(ri-d.FixedAmount*u, 0)
			}
		}
		if d.Type == TypeAmount && (d.Effect == EffectApplyToItemsProportionally || d.Effect == EffectApplyToItemsProportionallyByQuantity) {
			naive = min(d.AmountOff, sumR)
		}
	}
	if d.Type == TypePercent && d.AmountLimit > 0 && d.EffectOrDefault() == EffectApplyToOrder {
		naive = min(naive, d.AmountLimit)
	}
	if d.AggregatedAmountLimit > 0 {
		naive = min(naive, d.AggregatedAmountLimit)
	}
	return min(naive, r)
}

// checkApply verifies one Apply of d on pre that produced o and res.
func checkApply(pre, o *Order, d Discount, el Eligible, res Result) error {
	if err := o.Check(); err != nil {
		return err
	}
	if o.Amount-o.TotalDiscountAmount() != o.TotalAmount() {
		return fmt.Errorf("total amount clamped: amount %d, discounts %d", o.Amount, o.TotalDiscountAmount())
	}
	if len(res.ItemDiscounts) != len(o.Items) || len(o.Items) < len(pre.Items) {
		return fmt.Errorf("%d item discounts for %d lines (%d before)", len(res.ItemDiscounts), len(o.Items), len(pre.Items))
	}
	if res.Total != res.OrderDiscount+sum(res.ItemDiscounts) || res.OrderDiscount < 0 {
		return fmt.Errorf("result parts %+v", res)
	}
	if o.DiscountAmount-pre.DiscountAmount != res.OrderDiscount || o.AppliedDiscountAmount-pre.AppliedDiscountAmount != res.OrderDiscount {
		return fmt.Errorf("order-level amounts moved differently from %d", res.OrderDiscount)
	}
	var addedUnits, addedValue int64
	for i, it := range o.Items {
		var p Item
		if i < len(pre.Items) {
			p = pre.Items[i]
		} else if !it.Added {
			return fmt.Errorf("new line %d not marked Added", i)
		}
		s := res.ItemDiscounts[i]
		if s < 0 || it.DiscountAmount-p.DiscountAmount != s || it.AppliedDiscountAmount-p.AppliedDiscountAmount != s {
			return fmt.Errorf("line %d: share %d, discount moved %d, applied moved %d", i, s, it.DiscountAmount-p.DiscountAmount, it.AppliedDiscountAmount-p.AppliedDiscountAmount)
		}
		if it.InitialQuantity != p.InitialQuantity || it.InitialAmount != p.InitialAmount || it.Quantity < p.Quantity {
			return fmt.Errorf("line %d: initial values or quantity changed: %+v → %+v", i, p, it)
		}
		addedUnits += it.Quantity - p.Quantity
		addedValue += it.Amount - p.Amount
		if d.Type != TypeUnit && (s > p.Amount-p.DiscountAmount || (s > 0 && el != nil && !el(p))) {
			return fmt.Errorf("line %d: share %d, remaining %d, eligible %v", i, s, p.Amount-p.DiscountAmount, el == nil || el(p))
		}
	}
	if res.AddedUnits != addedUnits || o.Amount-pre.Amount != addedValue || o.InitialAmount != pre.InitialAmount {
		return fmt.Errorf("added %d units worth %d; result says %d units, amount moved %d", addedUnits, addedValue, res.AddedUnits, o.Amount-pre.Amount)
	}
	if res.Total > pre.Remaining()+addedValue {
		return fmt.Errorf("total %d above the remaining %d + added %d", res.Total, pre.Remaining(), addedValue)
	}
	if d.AggregatedAmountLimit > 0 && res.Total > d.AggregatedAmountLimit {
		return fmt.Errorf("total %d above the aggregated limit %d", res.Total, d.AggregatedAmountLimit)
	}
	if d.Type == TypePercent && d.AmountLimit > 0 && d.EffectOrDefault() == EffectApplyToOrder && res.Total > d.AmountLimit {
		return fmt.Errorf("total %d above amount_limit %d", res.Total, d.AmountLimit)
	}
	for i, s := range res.ItemDiscounts {
		if d.Type == TypePercent && d.AmountLimit > 0 && s > d.AmountLimit {
			return fmt.Errorf("line %d: %d above amount_limit %d (per line)", i, s, d.AmountLimit)
		}
	}
	if d.Type != TypeUnit {
		if addedUnits != 0 || len(o.Items) != len(pre.Items) {
			return fmt.Errorf("a %s discount changed the cart", d.Type)
		}
		if want := expectedTotal(pre, d, el); len(d.Targets) == 0 && res.Total != want {
			return fmt.Errorf("total %d, want %d", res.Total, want)
		}
	}
	return nil
}
