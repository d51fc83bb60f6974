package discount

import (
	"errors"
	"fmt"
	"slices"
)

// ErrInvalidOrder is wrapped by every error about the order: bad input to
// NewOrder, a violated invariant (Check) or a calculation that would push a
// value above MaxAmount.
var ErrInvalidOrder = errors.New("discount: invalid order")

// MaxAmount is the largest amount, price or quantity the package accepts
// (10^13 cents = 100 billion in the main currency unit).
const MaxAmount int64 = 10_000_000_000_000

// Item is one order line.
type Item struct {
	ProductID string // product id or source id as the client sent it ("" if none)
	SKUID     string // sku id or source id ("" if none)
	Quantity  int64  // units (>= 0); 0 when the client sent no quantity (then Amount is the line)
	Price     int64  // unit price; 0 when unknown
	Amount    int64  // line amount before discounts
	Line      int    // the caller's line number (1-based; 0 = none, e.g. a line a UNIT effect added); kept as given

	// Set by NewOrder and the calculations:

	InitialQuantity       int64 // quantity before UNIT effects added units
	InitialAmount         int64 // amount before UNIT effects
	DiscountQuantity      int64 // units given free by UNIT discounts
	DiscountAmount        int64 // cumulative item discount (earlier + this request)
	AppliedDiscountAmount int64 // item discount applied in this request
	Added                 bool  // the line was created by a UNIT discount
}

// Subtotal returns the line amount after its discounts (Amount − DiscountAmount).
func (it Item) Subtotal() int64 { return it.Amount - it.DiscountAmount }

// units is the number of units per-unit calculations count: Quantity, or 1
// for a line sent without a quantity.
func (it Item) units() int64 { return max(it.Quantity, 1) }

// Order is the running state of an order during one (possibly stacked) calculation.
// The calculations never change its lines in place (Apply gives the order new
// lines when it changes them), so a copy of an Order value is a snapshot of it
// that shares the lines; code outside the package must not change them either
// (Clone gives lines of one's own).
type Order struct {
	Items                 []Item
	Amount                int64 // before discounts (after UNIT effects added units)
	InitialAmount         int64 // before any effect
	DiscountAmount        int64 // order-level discounts (earlier + this request)
	AppliedDiscountAmount int64 // order-level discount applied in this request
}

// NewOrder builds an order from what a client sent; amount may be nil.
//
// A line's Amount defaults to Price×Quantity when it is 0 and Price > 0; a
// Quantity of 0 is kept (the line then counts as one unit in per-unit
// calculations). The order Amount is *amount when given (it may differ from
// the sum of the lines), else the sum of the line amounts. Lines keep their
// DiscountAmount and DiscountQuantity (earlier discounts of an existing order);
// AppliedDiscountAmount and Added are reset and the Initial* fields are set to
// the current values. Negative values, values above MaxAmount and
// inconsistent earlier discounts are reported as errors naming the field.
func NewOrder(amount *int64, items []Item) (*Order, error) {
	o := &Order{Items: make([]Item, len(items))}
	var total int64
	for i, it := range items {
		if err := checkItemInput(i, &it); err != nil {
			return nil, err
		}
		it.InitialQuantity, it.InitialAmount = it.Quantity, it.Amount
		it.AppliedDiscountAmount, it.Added = 0, false
		o.Items[i] = it
		total += it.Amount
		if total > MaxAmount {
			return nil, fmt.Errorf("%w: the sum of the item amounts exceeds the maximum %d (at items[%d])", ErrInvalidOrder, MaxAmount, i)
		}
	}
	o.Amount = total
	if amount != nil {
		if err := checkValue(ErrInvalidOrder, "amount", *amount); err != nil {
			return nil, err
		}
		o.Amount = *amount
	}
	o.InitialAmount = o.Amount
	if d := o.ItemsDiscountAmount(); d > o.Amount {
		return nil, fmt.Errorf("%w: the items' discount_amount total %d exceeds the order amount %d", ErrInvalidOrder, d, o.Amount)
	}
	return o, nil
}

// checkItemInput validates line i and fills its default amount.
func checkItemInput(i int, it *Item) error {
	fields := []struct {
		name string
		v    int64
	}{{"quantity", it.Quantity}, {"price", it.Price}, {"amount", it.Amount},
		{"discount_quantity", it.DiscountQuantity}, {"discount_amount", it.DiscountAmount}}
	for _, f := range fields {
		if f.v < 0 || f.v > MaxAmount { // the name is formatted only for an error
			return checkValue(ErrInvalidOrder, fmt.Sprintf("items[%d].%s", i, f.name), f.v)
		}
	}
	if it.Amount == 0 && it.Price > 0 {
		a, ok := mulSat(it.Price, it.Quantity)
		if !ok || a > MaxAmount {
			return fmt.Errorf("%w: items[%d]: price × quantity (%d × %d) exceeds the maximum amount %d", ErrInvalidOrder, i, it.Price, it.Quantity, MaxAmount)
		}
		it.Amount = a
	}
	if it.DiscountAmount > it.Amount {
		return fmt.Errorf("%w: items[%d].discount_amount %d exceeds the line amount %d", ErrInvalidOrder, i, it.DiscountAmount, it.Amount)
	}
	if it.DiscountQuantity > it.Quantity {
		return fmt.Errorf("%w: items[%d].discount_quantity %d exceeds the quantity %d", ErrInvalidOrder, i, it.DiscountQuantity, it.Quantity)
	}
	return nil
}

// checkValue reports, wrapping kind, a negative value or one above MaxAmount.
func checkValue(kind error, name string, v int64) error {
	if v < 0 {
		return fmt.Errorf("%w: %s must not be negative (got %d)", kind, name, v)
	}
	if v > MaxAmount {
		return fmt.Errorf("%w: %s must not exceed %d (got %d)", kind, name, MaxAmount, v)
	}
	return nil
}

// SetPreviousDiscount records an order-level discount given before this
// calculation (an existing order's discount_amount): DiscountAmount becomes
// AppliedDiscountAmount + amount. It fails when the discounts would exceed the
// order amount.
func (o *Order) SetPreviousDiscount(amount int64) error {
	if err := checkValue(ErrInvalidOrder, "discount_amount", amount); err != nil {
		return err
	}
	if o.AppliedDiscountAmount+amount+o.ItemsDiscountAmount() > o.Amount {
		return fmt.Errorf("%w: a previous discount of %d exceeds the remaining order amount %d", ErrInvalidOrder, amount, o.Amount-o.AppliedDiscountAmount-o.ItemsDiscountAmount())
	}
	o.DiscountAmount = o.AppliedDiscountAmount + amount
	return nil
}

// Clone returns a deep copy of o.
func (o *Order) Clone() *Order {
	c := *o
	c.Items = slices.Clone(o.Items)
	return &c
}

// ItemsDiscountAmount returns Σ items DiscountAmount.
func (o *Order) ItemsDiscountAmount() int64 {
	var s int64
	for _, it := range o.Items {
		s += it.DiscountAmount
	}
	return s
}

// ItemsAppliedDiscountAmount returns Σ items AppliedDiscountAmount.
func (o *Order) ItemsAppliedDiscountAmount() int64 {
	var s int64
	for _, it := range o.Items {
		s += it.AppliedDiscountAmount
	}
	return s
}

// TotalDiscountAmount returns DiscountAmount + ItemsDiscountAmount.
func (o *Order) TotalDiscountAmount() int64 { return o.DiscountAmount + o.ItemsDiscountAmount() }

// TotalAppliedDiscountAmount returns AppliedDiscountAmount + ItemsAppliedDiscountAmount.
func (o *Order) TotalAppliedDiscountAmount() int64 {
	return o.AppliedDiscountAmount + o.ItemsAppliedDiscountAmount()
}

// TotalAmount returns Amount − TotalDiscountAmount, never negative.
func (o *Order) TotalAmount() int64 { return max(o.Amount-o.TotalDiscountAmount(), 0) }

// Remaining returns what later discounts can still take; same as TotalAmount.
func (o *Order) Remaining() int64 { return o.TotalAmount() }
