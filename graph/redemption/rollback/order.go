package rollback

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	orders "github.com/promoengine/promoengine/graph/order"
	"github.com/promoengine/promoengine/graph/redemption"
)

// cancelOrder applies the WITH_ORDER rollback mode: the order is canceled,
// its discounts removed, and its redemptions entry records the rollback.
func (rb *rollbacker) cancelOrder(ctx context.Context, r *ent.Redemption, rollbackID string) (any, error) {
	if r.OrderID == nil {
		return nil, nil
	}
	q := rb.c.Order.Query().Where(order.ID(*r.OrderID))
	if store.IsPostgres(ctx) {
		q = q.ForUpdate()
	}
	o, err := q.Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading order: %w", err)
	}
	reds := o.Redemptions
	if entry, ok := reds[r.ID].(map[string]any); ok {
		entry["rollback_id"], entry["rollback_date"] = rollbackID, clock.Format(rb.now)
	}
	calc, err := redemption.DecodeOrderDocument(o.Calculated)
	if err != nil {
		return nil, err
	}
	amount := calc["amount"]
	for _, k := range []string{"discount_amount", "items_discount_amount", "total_discount_amount",
		"applied_discount_amount", "items_applied_discount_amount", "total_applied_discount_amount"} {
		calc[k] = 0
	}
	calc["total_amount"], calc["status"], calc["redemptions"] = amount, "CANCELED", reds
	if items, ok := calc["items"].([]any); ok {
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				m["discount_amount"], m["applied_discount_amount"], m["subtotal_amount"] = 0, 0, m["amount"]
			}
		}
	}
	doc, err := json.Marshal(calc)
	if err != nil {
		return nil, fmt.Errorf("encoding the canceled order: %w", err)
	}
	upd := rb.c.Order.UpdateOne(o).SetStatus(order.StatusCANCELED).SetRedemptions(reds).SetCalculated(doc)
	if err := orders.SetColumns(upd.Mutation(), doc); err != nil {
		return nil, err
	}
	canceled, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("canceling order: %w", err)
	}
	if err := orders.Written(ctx, o, canceled); err != nil {
		return nil, err
	}
	return calc, nil
}

// orderOf is the stored order of a redemption (nil when it has none).
func orderOf(ctx context.Context, r *ent.Redemption) (*ent.Order, error) {
	if r.OrderID == nil {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	o, err := c.Order.Get(ctx, *r.OrderID)
	if err != nil {
		return nil, fmt.Errorf("reading order: %w", err)
	}
	return o, nil
}
