package discount

import "fmt"

// applyUnits applies UNIT definitions in order, each on the state the
// previous one left.
func (o *Order) applyUnits(units []Unit) (Result, error) {
	var res Result
	for k, u := range units {
		if u.UnitOff == 0 {
			continue // nothing to give: no line is added
		}
		line, added, share, err := o.applyUnit(u)
		if err != nil {
			if len(units) > 1 {
				return Result{}, fmt.Errorf("units[%d]: %w", k, err)
			}
			return Result{}, err
		}
		for len(res.ItemDiscounts) < len(o.Items) {
			res.ItemDiscounts = append(res.ItemDiscounts, 0)
		}
		res.ItemDiscounts[line] += share
		res.AddedUnits += added
		res.Total += share
	}
	for len(res.ItemDiscounts) < len(o.Items) {
		res.ItemDiscounts = append(res.ItemDiscounts, 0)
	}
	return res, nil
}

// unitLine returns the index of the first line whose ProductID or SKUID is id, or -1.
func (o *Order) unitLine(id string) int {
	for i, it := range o.Items {
		if it.ProductID == id || it.SKUID == id {
			return i
		}
	}
	return -1
}

// unitPrice is the price of one unit of line it: its Price, else the
// catalog price, else Amount/Quantity rounded half-up, else 0 (unknown).
func unitPrice(it Item, catalog int64) int64 {
	switch {
	case it.Price > 0:
		return it.Price
	case catalog > 0:
		return catalog
	case it.Quantity > 0 && it.Amount > 0:
		return mulDivRound(it.Amount, 1, it.Quantity)
	}
	return 0
}

// applyUnit applies one UNIT definition (UnitOff > 0): it finds or appends
// the line, adds the units the effect requires and gives unit_off units free.
// A line without a price takes the catalog price when there is one. It returns the
// line, the units added and the line's discount. On error o may be partly
// changed (Apply works on a copy).
func (o *Order) applyUnit(u Unit) (line int, added, share int64, err error) {
	line = o.unitLine(u.UnitType)
	if line < 0 {
		o.Items = append(o.Items, Item{ProductID: u.UnitType, Price: u.Price, Added: true})
		line = len(o.Items) - 1
	}
	it := &o.Items[line]
	price := unitPrice(*it, u.Price)
	if it.Price == 0 && u.Price > 0 {
		it.Price = price // the catalog price fills an unknown line price
	}
	switch u.effect() {
	case EffectAddMissingItems:
		free := it.Quantity - it.DiscountQuantity // units not given free yet
		added = max(u.UnitOff-free, 0)
	case EffectAddNewItems:
		added = u.UnitOff
	}
	value, ok := mulSat(added, price)
	if !ok || it.Quantity+added > MaxAmount || it.Amount+value > MaxAmount || o.Amount+value > MaxAmount {
		return 0, 0, 0, fmt.Errorf("%w: adding %d units of %q at %d would exceed the maximum %d", ErrInvalidOrder, added, u.UnitType, price, MaxAmount)
	}
	it.Quantity += added
	it.Amount += value
	o.Amount += value
	it.DiscountQuantity += u.UnitOff
	share = min(mulCap(u.UnitOff, price, it.Subtotal()), o.Remaining())
	it.DiscountAmount += share
	it.AppliedDiscountAmount += share
	return line, added, share, nil
}
