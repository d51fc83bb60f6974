package order

import (
	"strings"
	"testing"

	"github.com/promoengine/promoengine/graph/apperr"
)

// TestCalculate table-tests the order maths of redemption-behaviour §2.2
// and the reference's worked example (OA:val "Amount": 46500).
func TestCalculate(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	q := func(v int64) *Quantity { n := Quantity(v); return &n }
	line := func(quantity int64, price *int64, amount *int64) *ItemInput {
		return &ItemInput{Quantity: q(quantity), Price: price, Amount: amount}
	}
	cases := []struct {
		name                                   string
		amount, discount                       *int64
		items                                  []*ItemInput
		refs                                   []catalogRef
		wantAmount, wantItemsDiscount, wantTot int64
		wantLines                              []int64
		wantErr                                string
	}{
		{name: "worked example", items: []*ItemInput{line(1, i64(6500), nil), line(1, i64(6000), nil), line(1, i64(2000), nil),
			line(2, i64(5000), nil), line(2, i64(11000), nil)}, wantAmount: 46500, wantTot: 46500,
			wantLines: []int64{6500, 6000, 2000, 10000, 22000}},
		{name: "amount sent wins over the lines", amount: i64(1000), items: []*ItemInput{line(2, i64(300), nil)},
			wantAmount: 1000, wantTot: 1000, wantLines: []int64{600}},
		{name: "line amount sent", items: []*ItemInput{line(3, i64(100), i64(250))}, wantAmount: 250, wantTot: 250, wantLines: []int64{250}},
		{name: "catalogue price", items: []*ItemInput{line(2, nil, nil)}, refs: []catalogRef{{Price: i64(1200)}},
			wantAmount: 2400, wantTot: 2400, wantLines: []int64{2400}},
		{name: "sent price beats the catalogue", items: []*ItemInput{line(2, i64(10), nil)}, refs: []catalogRef{{Price: i64(1200)}},
			wantAmount: 20, wantTot: 20, wantLines: []int64{20}},
		{name: "order discount", amount: i64(5000), discount: i64(700), wantAmount: 5000, wantTot: 4300},
		{name: "item discounts", items: []*ItemInput{{Quantity: q(1), Price: i64(1000), DiscountAmount: i64(100)}, line(1, i64(500), nil)},
			discount: i64(200), wantAmount: 1500, wantItemsDiscount: 100, wantTot: 1200, wantLines: []int64{1000, 500}},
		{name: "no lines, no amount", wantAmount: 0, wantTot: 0},
		{name: "quantity 0", items: []*ItemInput{line(0, i64(1), nil)}, wantErr: "items[0].quantity cannot be lower than 1"},
		{name: "negative price", items: []*ItemInput{line(1, i64(-1), nil)}, wantErr: "items[0].price must not be negative"},
		{name: "negative amount", amount: i64(-1), wantErr: "amount must not be negative"},
		{name: "discount above amount", amount: i64(10), discount: i64(11), wantErr: "discount"},
		{name: "nil line", items: []*ItemInput{nil}, wantErr: "items[0] must be an object"},
		{name: "too many lines", items: make([]*ItemInput, MaxItems+1), wantErr: "at most 500 items"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := calculate(c.amount, c.discount, c.items, c.refs)
			if c.wantErr != "" {
				e, ok := apperr.As(err)
				if !ok || e.Key != "invalid_payload" || !strings.Contains(e.Details, c.wantErr) {
					t.Fatalf("err = %v, want invalid_payload with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Amount != c.wantAmount || o.ItemsDiscountAmount() != c.wantItemsDiscount || o.TotalAmount() != c.wantTot ||
				o.TotalDiscountAmount() != o.DiscountAmount+o.ItemsDiscountAmount() {
				t.Errorf("amount %d items_discount %d total %d (discount %d)", o.Amount, o.ItemsDiscountAmount(), o.TotalAmount(), o.DiscountAmount)
			}
			for i, want := range c.wantLines {
				if o.Items[i].Amount != want {
					t.Errorf("line %d amount %d, want %d", i, o.Items[i].Amount, want)
				}
				if sub := lineJSON(c.items[i], catalogRef{}, o.Items[i])["subtotal_amount"]; sub != o.Items[i].Amount-o.Items[i].DiscountAmount {
					t.Errorf("line %d subtotal %v", i, sub)
				}
			}
		})
	}
}
