package discount

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Type of a discount.
type Type string

// Discount types.
const (
	TypeAmount  Type = "AMOUNT"  // a fixed amount off (amount_off)
	TypePercent Type = "PERCENT" // a percentage off (percent_off)
	TypeFixed   Type = "FIXED"   // a fixed new total or unit price (fixed_amount)
	TypeUnit    Type = "UNIT"    // free units of a product (unit_off, unit_type)
)

// Effect of a discount: what it applies to.
type Effect string

// Discount effects.
const (
	EffectApplyToOrder                         Effect = "APPLY_TO_ORDER"
	EffectApplyToItems                         Effect = "APPLY_TO_ITEMS"
	EffectApplyToItemsProportionally           Effect = "APPLY_TO_ITEMS_PROPORTIONALLY"
	EffectApplyToItemsProportionallyByQuantity Effect = "APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY"
	EffectApplyToItemsByQuantity               Effect = "APPLY_TO_ITEMS_BY_QUANTITY"
	EffectAddMissingItems                      Effect = "ADD_MISSING_ITEMS"
	EffectAddNewItems                          Effect = "ADD_NEW_ITEMS"
	EffectAddManyItems                         Effect = "ADD_MANY_ITEMS"
)

// ErrInvalidDiscount is wrapped by every error about an unusable discount definition.
var ErrInvalidDiscount = errors.New("discount: invalid discount")

// allowedEffects lists the effects each type accepts; the first is the default.
var allowedEffects = map[Type][]Effect{
	TypeAmount: {EffectApplyToOrder, EffectApplyToItems, EffectApplyToItemsProportionally,
		EffectApplyToItemsProportionallyByQuantity, EffectApplyToItemsByQuantity},
	TypePercent: {EffectApplyToOrder, EffectApplyToItems},
	TypeFixed:   {EffectApplyToOrder, EffectApplyToItems},
	TypeUnit:    {EffectAddMissingItems, EffectAddNewItems, EffectAddManyItems},
}

// Unit is one UNIT definition (for ADD_MANY_ITEMS each element of units[]).
type Unit struct {
	UnitOff  int64  // free units
	UnitType string // product (or SKU) id of the units
	Effect   Effect // ADD_MISSING_ITEMS or ADD_NEW_ITEMS; "" means ADD_MISSING_ITEMS
	Price    int64  // optional catalog unit price, used when the cart line has no price (0 = unknown)
}

// Discount is what one redeemable takes off.
type Discount struct {
	Type   Type
	Effect Effect // "" means the type's default: APPLY_TO_ORDER, or ADD_MISSING_ITEMS for UNIT

	AmountOff             int64   // AMOUNT
	PercentOff            float64 // PERCENT: 0..100, may have decimals like 12.5
	AmountLimit           int64   // PERCENT: cap of this discount (0 = none)
	AggregatedAmountLimit int64   // any type: cap of this redeemable's total discount on the order (0 = none)
	FixedAmount           int64   // FIXED
	NoFixedAmount         bool    // FIXED without fixed_amount: only targets with a Price discount
	UnitOff               int64   // UNIT: free units
	UnitType              string  // UNIT: product (or SKU) id of the free units
	UnitPrice             int64   // UNIT: optional catalog unit price, used when the cart line has no price (0 = unknown)
	Units                 []Unit  // UNIT with ADD_MANY_ITEMS
	// Targets are the applicable_to entries of an item effect (targets.go);
	// none: every eligible line, whole.
	Targets []Target
}

// EffectOrDefault returns d.Effect, or the type's default effect when it is empty.
func (d Discount) EffectOrDefault() Effect {
	if d.Effect == "" {
		if effects := allowedEffects[d.Type]; len(effects) > 0 {
			return effects[0]
		}
	}
	return d.Effect
}

// Validate reports a clear error (wrapping ErrInvalidDiscount) for an unusable
// definition: an unknown type, an effect the type does not allow, a negative
// or too large value of a field the type uses, a percent outside 0..100, a
// UNIT without unit_type, or ADD_MANY_ITEMS without units. Fields the type
// does not use are ignored.
func (d Discount) Validate() error {
	effects, ok := allowedEffects[d.Type]
	if !ok {
		return fmt.Errorf("%w: unknown type %q", ErrInvalidDiscount, d.Type)
	}
	effect := d.EffectOrDefault()
	if !slices.Contains(effects, effect) {
		return fmt.Errorf("%w: effect %q is not allowed for type %s (allowed: %v)", ErrInvalidDiscount, effect, d.Type, effects)
	}
	if err := checkValue(ErrInvalidDiscount, "aggregated_amount_limit", d.AggregatedAmountLimit); err != nil {
		return err
	}
	for i, t := range d.Targets {
		if err := t.validate(i); err != nil {
			return err
		}
	}
	switch d.Type {
	case TypeAmount:
		return checkValue(ErrInvalidDiscount, "amount_off", d.AmountOff)
	case TypePercent:
		if math.IsNaN(d.PercentOff) || d.PercentOff < 0 || d.PercentOff > 100 {
			return fmt.Errorf("%w: percent_off must be between 0 and 100 (got %v)", ErrInvalidDiscount, d.PercentOff)
		}
		return checkValue(ErrInvalidDiscount, "amount_limit", d.AmountLimit)
	case TypeFixed:
		return checkValue(ErrInvalidDiscount, "fixed_amount", d.FixedAmount)
	}
	if effect != EffectAddManyItems {
		return Unit{UnitOff: d.UnitOff, UnitType: d.UnitType, Effect: effect, Price: d.UnitPrice}.validate("")
	}
	if len(d.Units) == 0 {
		return fmt.Errorf("%w: units must not be empty with effect %s", ErrInvalidDiscount, EffectAddManyItems)
	}
	for i, u := range d.Units {
		if err := u.validate(fmt.Sprintf("units[%d].", i)); err != nil {
			return err
		}
	}
	return nil
}

// validate checks one unit definition; prefix names it in errors.
func (u Unit) validate(prefix string) error {
	if e := u.effect(); e != EffectAddMissingItems && e != EffectAddNewItems {
		return fmt.Errorf("%w: %seffect must be %s or %s (got %q)", ErrInvalidDiscount, prefix, EffectAddMissingItems, EffectAddNewItems, u.Effect)
	}
	if u.UnitType == "" {
		return fmt.Errorf("%w: %sunit_type must not be empty", ErrInvalidDiscount, prefix)
	}
	if err := checkValue(ErrInvalidDiscount, prefix+"unit_off", u.UnitOff); err != nil {
		return err
	}
	price := prefix + "price"
	if prefix == "" {
		price = "unit_price"
	}
	return checkValue(ErrInvalidDiscount, price, u.Price)
}

// effect returns the unit's effect, ADD_MISSING_ITEMS when empty.
func (u Unit) effect() Effect {
	if u.Effect == "" {
		return EffectAddMissingItems
	}
	return u.Effect
}

// units returns the unit definitions a UNIT discount applies, in order.
func (d Discount) units() []Unit {
	if d.EffectOrDefault() == EffectAddManyItems {
		return d.Units
	}
	return []Unit{{UnitOff: d.UnitOff, UnitType: d.UnitType, Effect: d.EffectOrDefault(), Price: d.UnitPrice}}
}
