package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// loadStoredOrder finds the existing order the request names by id (404
// when unknown) or source_id (nil when new). A redemption locks its row
// first — before the vouchers, as every redemption does, so concurrent
// Redemptions of one order take turns and see each other's discounts.
func (e *evaluation) loadStoredOrder(ctx context.Context, lock bool) error {
	in := e.req.order
	if in == nil || (in.ID == nil && in.SourceID == nil) {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	q := c.Order.Query()
	if in.ID != nil {
		q = q.Where(order.ID(*in.ID))
	} else {
		q = q.Where(order.SourceID(*in.SourceID))
	}
	if lock && store.IsPostgres(ctx) {
		q = q.ForUpdate()
	}
	o, err := q.Only(ctx)
	switch {
	case ent.IsNotFound(err) && in.ID != nil:
		return apperr.NotFound("order", *in.ID)
	case ent.IsNotFound(err):
		return nil
	case err != nil:
		return fmt.Errorf("looking up order: %w", err)
	}
	e.storedOrder = o
	return nil
}

// startOrder is the order the calculation starts from: the request's
// order and, for an existing order that is not canceled, the discounts
// earlier redemptions gave it (as an order-level previous discount). A
// request naming a stored order without amount or items takes the stored
// amount.
func (e *evaluation) startOrder() (*discount.Order, error) {
	o, err := e.req.discountOrder()
	if err != nil || e.storedOrder == nil || e.storedOrder.Status == order.StatusCANCELED {
		return o, err
	}
	calc, err := DecodeOrderDocument(e.storedOrder.Calculated)
	if err != nil {
		return nil, err
	}
	if in := e.req.order; in.Amount == nil && len(in.Items) == 0 {
		amount := validationrule.JSONInt64(calc["amount"])
		if o, err = discount.NewOrder(&amount, nil); err != nil {
			return nil, apperr.InvalidPayload("The stored order %s cannot be used: %v", e.storedOrder.ID, err)
		}
	}
	if prev := validationrule.JSONInt64(calc["total_discount_amount"]); prev > 0 {
		if err := o.SetPreviousDiscount(prev); err != nil {
			return nil, apperr.InvalidPayload("Property .order.amount is below the %d the order %s was already discounted by", prev, e.storedOrder.ID)
		}
	}
	return o, nil
}
