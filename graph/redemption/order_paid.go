package redemption

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/order"
)

// PaidOrder is an order that has just become PAID through a redemption,
// as loyalty earning reads it: amounts in cents before and after
// discounts, and the order's metadata.
type PaidOrder struct {
	Order       *ent.Order
	Customer    *ent.Customer
	Amount      int64
	TotalAmount int64
	Metadata    map[string]any
}

// OnOrderPaid reacts to an order becoming PAID (the customer.order.paid
// event): v1 loyalty earning, set at wiring (graph/wiring.go). It runs in
// the redemption's transaction; an error rolls the redemption back. An
// order that was already PAID (a retry, a second redemption on it) does
// not call it again, so a paid order earns once.
var OnOrderPaid func(ctx context.Context, paid PaidOrder) error

// orderPaid calls OnOrderPaid when the stored order moved from before to
// PAID and has a customer.
func (w *writer) orderPaid(ctx context.Context, before order.Status, o *ent.Order) error {
	if OnOrderPaid == nil || o.Status != order.StatusPAID || before == order.StatusPAID || w.e.customer == nil {
		return nil
	}
	paid := PaidOrder{Order: o, Customer: w.e.customer, Metadata: o.Metadata}
	if v := w.view; v != nil {
		paid.Amount, paid.TotalAmount = v.Amount, v.TotalAmount
		if v.Metadata != nil {
			paid.Metadata = v.Metadata
		}
	}
	return OnOrderPaid(ctx, paid)
}
