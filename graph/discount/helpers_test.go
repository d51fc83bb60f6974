package discount

import (
	"slices"
	"testing"
)

// line builds a cart line of qty units at price.
func line(id string, qty, price int64) Item { return Item{ProductID: id, Quantity: qty, Price: price} }

// mustOrder builds an order or fails the test.
func mustOrder(t testing.TB, amount *int64, items ...Item) *Order {
	t.Helper()
	o, err := NewOrder(amount, items)
	if err != nil {
		t.Fatalf("NewOrder: %v", err)
	}
	return o
}

// ptr returns a pointer to v.
func ptr(v int64) *int64 { return &v }

// only accepts the lines whose ProductID is one of ids.
func only(ids ...string) Eligible {
	return func(it Item) bool { return slices.Contains(ids, it.ProductID) }
}

// cart3 is the reference cart: T-shirt 3000, Pen 2000, Mug 1000.
func cart3(t *testing.T) *Order {
	return mustOrder(t, nil, line("tshirt", 1, 3000), line("pen", 1, 2000), line("mug", 1, 1000))
}

// lineDiscounts returns every line's DiscountAmount.
func lineDiscounts(o *Order) []int64 {
	out := make([]int64, len(o.Items))
	for i, it := range o.Items {
		out[i] = it.DiscountAmount
	}
	return out
}

// mustApply applies d or fails the test, checking the order's invariants.
func mustApply(t testing.TB, o *Order, d Discount, el Eligible) Result {
	t.Helper()
	res, err := o.Apply(d, el)
	if err != nil {
		t.Fatalf("Apply(%+v): %v", d, err)
	}
	if err := o.Check(); err != nil {
		t.Fatalf("after Apply(%+v): %v", d, err)
	}
	return res
}
