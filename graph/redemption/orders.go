package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	orders "github.com/promoengine/promoengine/graph/order"
)

// saveOrder stores the redeemed order: the one named by id (404 when
// unknown) or source_id (created on first use, in one upsert statement so
// concurrent redemptions agree on one row), else a new one. It keeps the
// calculated order and adds this redemption's entries to its redemptions.
func (w *writer) saveOrder(ctx context.Context, entries map[string]any) (*ent.Order, error) {
	in := w.e.req.order
	if in == nil {
		in = &OrderInput{}
	}
	var id string
	switch {
	case in.ID != nil:
		o, err := w.c.Order.Get(ctx, *in.ID)
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("order", *in.ID)
		}
		if err != nil {
			return nil, fmt.Errorf("looking up order: %w", err)
		}
		id = o.ID
	case in.SourceID != nil:
		var err error
		id, err = w.c.Order.Create().SetSourceID(*in.SourceID).
			OnConflictColumns(order.FieldProjectID, order.FieldSourceID).
			Update(func(u *ent.OrderUpsert) { u.UpdateUpdatedAt() }).ID(ctx)
		if err != nil {
			return nil, fmt.Errorf("saving order: %w", err)
		}
	default:
		return w.createOrder(ctx, in, entries)
	}
	// Lock the order row for the read-modify-write of its redemptions map.
	q := w.c.Order.Query().Where(order.ID(id))
	if store.IsPostgres(ctx) {
		q = q.ForUpdate()
	}
	o, err := q.Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading order: %w", err)
	}
	before := *o // as it was, for the order's side effects (orders.Written)
	redemptions := o.Redemptions
	if redemptions == nil {
		redemptions = map[string]any{}
	}
	for k, v := range entries {
		redemptions[k] = v
	}
	if in.Status != nil {
		o.Status = order.Status(*in.Status)
	}
	w.stored = o
	w.view = newOrderView(w.e.order, w.e.req.order, o, w.e.customer)
	w.view.Redemptions = redemptions
	doc, err := w.viewDocument()
	if err != nil {
		return nil, err
	}
	upd := o.Update().SetRedemptions(redemptions).SetCalculated(doc)
	if err := w.view.setColumns(upd.Mutation()); err != nil {
		return nil, err
	}
	if in.Status != nil {
		upd.SetStatus(order.Status(*in.Status))
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if w.e.customer != nil {
		upd.SetCustomerID(w.e.customer.ID)
	}
	if o, err = upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating order: %w", err)
	}
	if err := orders.Written(customerpkg.WithinRedemption(w.e.eventContext(ctx)), &before, o); err != nil {
		return nil, err
	}
	w.stored = o
	status := o.Status.String()
	w.view.Status = &status
	w.viewDoc = nil // the view changed
	return o, nil
}

// createOrder stores a new order (one the request did not name) in one
// statement.
func (w *writer) createOrder(ctx context.Context, in *OrderInput, entries map[string]any) (*ent.Order, error) {
	status := order.StatusCREATED
	if in.Status != nil {
		status = order.Status(*in.Status)
	}
	o := &ent.Order{ID: pulid.PrefixOrder + pulid.Hex(9), Status: status, CreatedAt: w.e.now}
	w.view = newOrderView(w.e.order, w.e.req.order, o, w.e.customer)
	w.view.Redemptions = entries
	doc, err := w.viewDocument()
	if err != nil {
		return nil, err
	}
	create := w.c.Order.Create().SetID(o.ID).SetCreatedAt(o.CreatedAt).SetStatus(status).SetRedemptions(entries).
		SetCalculated(doc).SetMetadata(shape.OrEmptyMap(in.Metadata))
	if w.e.customer != nil {
		create.SetCustomerID(w.e.customer.ID)
	}
	if err := w.view.setColumns(create.Mutation()); err != nil {
		return nil, err
	}
	saved, err := saveOrderRow(ctx, create)
	if err != nil {
		return nil, fmt.Errorf("saving order: %w", err)
	}
	if err := orders.Written(customerpkg.WithinRedemption(w.e.eventContext(ctx)), nil, saved); err != nil {
		return nil, err
	}
	w.stored = saved
	return saved, nil
}
