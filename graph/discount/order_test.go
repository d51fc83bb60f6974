package discount

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestNewOrder(t *testing.T) {
	o := mustOrder(t, nil,
		Item{ProductID: "a", Quantity: 2, Price: 1500},               // amount from price × quantity
		Item{ProductID: "b", Quantity: 2, Price: 1500, Amount: 2900}, // amount as given
		Item{ProductID: "c", Amount: 700},                            // no quantity, no price
		Item{ProductID: "d", Price: 900},                             // quantity 0: amount 0
		Item{ProductID: "e", Quantity: 1, Price: 100, DiscountAmount: 40, DiscountQuantity: 1, AppliedDiscountAmount: 5, Added: true},
	)
	wantAmounts := []int64{3000, 2900, 700, 0, 100}
	for i, it := range o.Items {
		if it.Amount != wantAmounts[i] || it.InitialAmount != it.Amount || it.InitialQuantity != it.Quantity {
			t.Errorf("items[%d] = %+v, want amount %d and initial values", i, it, wantAmounts[i])
		}
		if it.AppliedDiscountAmount != 0 || it.Added {
			t.Errorf("items[%d]: applied/added not reset: %+v", i, it)
		}
	}
	if o.Items[3].Quantity != 0 {
		t.Errorf("quantity 0 changed to %d", o.Items[3].Quantity)
	}
	if o.Items[4].DiscountAmount != 40 || o.Items[4].DiscountQuantity != 1 {
		t.Errorf("earlier discounts not kept: %+v", o.Items[4])
	}
	if o.Amount != 6700 || o.InitialAmount != 6700 || o.TotalAmount() != 6660 || o.TotalAppliedDiscountAmount() != 0 {
		t.Errorf("order = %+v, total %d", o, o.TotalAmount())
	}

	o = mustOrder(t, ptr(5000), line("a", 1, 3000))
	if o.Amount != 5000 || o.InitialAmount != 5000 {
		t.Errorf("given amount not used: %+v", o)
	}
	o = mustOrder(t, nil)
	if o.Amount != 0 || len(o.Items) != 0 {
		t.Errorf("empty order = %+v", o)
	}
	if o.Items == nil {
		t.Error("Items should be an empty, non-nil slice")
	}
}

func TestNewOrderErrors(t *testing.T) {
	big := MaxAmount
	tests := []struct {
		name   string
		amount *int64
		items  []Item
		want   string
	}{
		{"negative quantity", nil, []Item{{}, {}, {Quantity: -1}}, "items[2].quantity must not be negative"},
		{"negative price", nil, []Item{{Price: -5}}, "items[0].price must not be negative"},
		{"negative line amount", nil, []Item{{Amount: -5}}, "items[0].amount must not be negative"},
		{"negative order amount", ptr(-1), nil, "amount must not be negative"},
		{"order amount too large", ptr(big + 1), nil, "amount must not exceed"},
		{"price too large", nil, []Item{{Price: big + 1}}, "items[0].price must not exceed"},
		{"quantity too large", nil, []Item{{Quantity: math.MaxInt64}}, "items[0].quantity must not exceed"},
		{"price × quantity overflows", nil, []Item{{Quantity: big, Price: big}}, "items[0]: price × quantity"},
		{"price × quantity above max", nil, []Item{{Quantity: 2, Price: big/2 + 1}}, "items[0]: price × quantity"},
		{"sum of lines above max", nil, []Item{{Amount: big}, {Amount: 1}}, "sum of the item amounts"},
		{"line discount above line", nil, []Item{{Amount: 10, DiscountAmount: 11}}, "items[0].discount_amount 11 exceeds"},
		{"discount quantity above quantity", nil, []Item{{Quantity: 1, DiscountQuantity: 2}}, "items[0].discount_quantity 2 exceeds"},
		{"line discounts above order amount", ptr(5), []Item{{Amount: 10, DiscountAmount: 6}}, "exceeds the order amount 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := NewOrder(tc.amount, tc.items)
			if err == nil {
				t.Fatalf("NewOrder = %+v, want error %q", o, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalidOrder) {
				t.Errorf("error = %q, want it to contain %q and wrap ErrInvalidOrder", err, tc.want)
			}
		})
	}
}

func TestOrderTotalsAndClone(t *testing.T) {
	o := cart3(t)
	mustApply(t, o, Discount{Type: TypeAmount, AmountOff: 100}, nil)
	mustApply(t, o, Discount{Type: TypeAmount, Effect: EffectApplyToItems, AmountOff: 50}, only("pen"))
	if o.ItemsDiscountAmount() != 50 || o.ItemsAppliedDiscountAmount() != 50 || o.TotalDiscountAmount() != 150 ||
		o.TotalAppliedDiscountAmount() != 150 || o.TotalAmount() != 5850 || o.Remaining() != 5850 {
		t.Errorf("totals wrong: %+v", o)
	}
	c := o.Clone()
	c.Items[1].DiscountAmount = 0
	c.Items = append(c.Items, Item{})
	if o.Items[1].DiscountAmount != 50 || len(o.Items) != 3 {
		t.Error("Clone shares items with the original")
	}
}

func TestSetPreviousDiscount(t *testing.T) {
	o := cart3(t)
	if err := o.SetPreviousDiscount(5100); err != nil {
		t.Fatal(err)
	}
	res := mustApply(t, o, Discount{Type: TypeAmount, AmountOff: 500}, nil)
	if res.Total != 500 || o.DiscountAmount != 5600 || o.AppliedDiscountAmount != 500 || o.TotalAmount() != 400 {
		t.Errorf("after previous discount: %+v, result %+v", o, res)
	}
	if err := o.SetPreviousDiscount(6000); err == nil {
		t.Error("a previous discount above the order amount was accepted")
	}
	if err := o.SetPreviousDiscount(-1); err == nil {
		t.Error("a negative previous discount was accepted")
	}
}

func TestCheck(t *testing.T) {
	o := cart3(t)
	if err := o.Check(); err != nil {
		t.Fatal(err)
	}
	o.Items[0].DiscountAmount = 4000
	o.DiscountAmount = 3000
	err := o.Check()
	if err == nil || !strings.Contains(err.Error(), "items[0].discount_amount 4000 exceeds") ||
		!strings.Contains(err.Error(), "total discount 7000 exceeds") || !errors.Is(err, ErrInvalidOrder) {
		t.Errorf("Check = %v", err)
	}
	before := o.Clone()
	if _, err := o.Apply(Discount{Type: TypeAmount, AmountOff: 1}, nil); err == nil {
		t.Error("Apply accepted a broken order")
	}
	if o.DiscountAmount != before.DiscountAmount {
		t.Error("Apply changed a broken order")
	}
}
