package discount

import (
	"errors"
	"fmt"
)

// Check reports every violated invariant of o (joined, each wrapping
// ErrInvalidOrder): values within [0, MaxAmount], applied amounts within the
// cumulative ones, line discounts within line amounts, free units within
// quantities, and the total discount within the order amount.
func (o *Order) Check() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkValue(ErrInvalidOrder, "amount", o.Amount))
	add(checkValue(ErrInvalidOrder, "initial_amount", o.InitialAmount))
	add(checkValue(ErrInvalidOrder, "discount_amount", o.DiscountAmount))
	add(checkValue(ErrInvalidOrder, "applied_discount_amount", o.AppliedDiscountAmount))
	add(checkAtMost("applied_discount_amount", o.AppliedDiscountAmount, "discount_amount", o.DiscountAmount))
	for i, it := range o.Items {
		add(checkItem(i, it))
	}
	add(checkAtMost("total discount", o.TotalDiscountAmount(), "the order amount", o.Amount))
	return errors.Join(errs...)
}

// checkItem reports the violated invariants of line i.
func checkItem(i int, it Item) error {
	if itemHolds(it) {
		return nil // the common case, without building the messages' names
	}
	var errs []error
	for _, f := range []struct {
		name string
		v    int64
	}{{"quantity", it.Quantity}, {"price", it.Price}, {"amount", it.Amount},
		{"initial_quantity", it.InitialQuantity}, {"initial_amount", it.InitialAmount},
		{"discount_quantity", it.DiscountQuantity}, {"discount_amount", it.DiscountAmount},
		{"applied_discount_amount", it.AppliedDiscountAmount}} {
		if f.v < 0 || f.v > MaxAmount {
			errs = append(errs, checkValue(ErrInvalidOrder, fmt.Sprintf("items[%d].%s", i, f.name), f.v))
		}
	}
	for _, c := range []struct {
		name  string
		v     int64
		limit string
		max   int64
	}{{"discount_amount", it.DiscountAmount, "the line amount", it.Amount},
		{"applied_discount_amount", it.AppliedDiscountAmount, "its discount_amount", it.DiscountAmount},
		{"discount_quantity", it.DiscountQuantity, "the quantity", it.Quantity}} {
		if c.v > c.max {
			errs = append(errs, checkAtMost(fmt.Sprintf("items[%d].%s", i, c.name), c.v, c.limit, c.max))
		}
	}
	return errors.Join(errs...)
}

// checkAtMost reports v above limit.
func checkAtMost(name string, v int64, limitName string, limit int64) error {
	if v > limit {
		return fmt.Errorf("%w: %s %d exceeds %s %d", ErrInvalidOrder, name, v, limitName, limit)
	}
	return nil
}

// itemHolds reports whether line it violates none of checkItem's invariants.
func itemHolds(it Item) bool {
	for _, v := range [...]int64{it.Quantity, it.Price, it.Amount, it.InitialQuantity, it.InitialAmount,
		it.DiscountQuantity, it.DiscountAmount, it.AppliedDiscountAmount} {
		if v < 0 || v > MaxAmount {
			return false
		}
	}
	return it.DiscountAmount <= it.Amount && it.AppliedDiscountAmount <= it.DiscountAmount && it.DiscountQuantity <= it.Quantity
}
