package campaign

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/discount"
)

// DiscountOf maps a stored discount definition to the calculation's.
func DiscountOf(d *jsonfield.Discount) discount.Discount {
	out := discount.Discount{Type: discount.Type(d.Type)}
	if d.Effect != nil {
		out.Effect = discount.Effect(*d.Effect)
	}
	if d.AmountOff != nil {
		out.AmountOff = int64(*d.AmountOff)
	}
	if d.PercentOff != nil {
		out.PercentOff = *d.PercentOff
	}
	if d.AmountLimit != nil {
		out.AmountLimit = int64(*d.AmountLimit)
	}
	if d.AggregatedAmountLimit != nil {
		out.AggregatedAmountLimit = *d.AggregatedAmountLimit
	}
	if d.FixedAmount != nil {
		out.FixedAmount = int64(*d.FixedAmount)
	} else if out.Type == discount.TypeFixed {
		out.NoFixedAmount = true
	}
	if d.UnitOff != nil {
		out.UnitOff = *d.UnitOff
	}
	if d.UnitType != nil {
		out.UnitType = *d.UnitType
	}
	for _, u := range d.Units {
		unit := discount.Unit{}
		if u.UnitOff != nil {
			unit.UnitOff = *u.UnitOff
		}
		if u.UnitType != nil {
			unit.UnitType = *u.UnitType
		}
		if u.Effect != nil {
			unit.Effect = discount.Effect(*u.Effect)
		}
		out.Units = append(out.Units, unit)
	}
	return out
}
