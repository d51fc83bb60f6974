package redemption

import (
	"context"
	"encoding/json"
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

// orderEntry is a redemption's entry in its order's redemptions map (keyed
// by the redemption's ID). Its fields are in the order encoding/json writes
// a map's keys (sorted), so that it encodes as the map it stands for does.
type orderEntry struct {
	Date            string `json:"date"`
	RelatedObjectID string `json:"related_object_id"`
	// RelatedObjectParentID: a tier's campaign (a string; nil: no key).
	RelatedObjectParentID any    `json:"related_object_parent_id,omitempty"`
	RelatedObjectType     string `json:"related_object_type"`
	// Stacked: a stacked redemption's children ([]string; nil: no key).
	Stacked any `json:"stacked,omitempty"`
}

// asMap is the entry as the order row's redemptions map holds it.
func (e orderEntry) asMap() map[string]any {
	m := map[string]any{"date": e.Date, "related_object_type": e.RelatedObjectType, "related_object_id": e.RelatedObjectID}
	if e.RelatedObjectParentID != nil {
		m["related_object_parent_id"] = e.RelatedObjectParentID
	}
	if e.Stacked != nil {
		m["stacked"] = e.Stacked
	}
	return m
}

// document is the redemptions map {id: entry} as encoding/json encodes
// it, encoded once for the order's calculated document and its
// redemptions column: written directly when every string is plain
// (plainJSON), else by json.Marshal.
func (e orderEntry) document(id string) (json.RawMessage, error) {
	parent, parentOK := e.RelatedObjectParentID.(string)
	stacked, stackedOK := e.Stacked.([]string)
	plain := plainJSON(id) && plainJSON(e.Date) && plainJSON(e.RelatedObjectID) && plainJSON(e.RelatedObjectType) &&
		(e.RelatedObjectParentID == nil || parentOK && plainJSON(parent)) && (e.Stacked == nil || stackedOK && stacked != nil)
	for _, c := range stacked {
		plain = plain && plainJSON(c)
	}
	if plain {
		doc := make([]byte, 0, 96+len(id)+len(e.RelatedObjectID)+len(parent)+len(stacked)*(len(id)+3))
		doc = append(append(append(doc, `{"`...), id...), `":{"date":"`...)
		doc = append(append(append(doc, e.Date...), `","related_object_id":"`...), e.RelatedObjectID...)
		if e.RelatedObjectParentID != nil {
			doc = append(append(doc, `","related_object_parent_id":"`...), parent...)
		}
		doc = append(append(append(doc, `","related_object_type":"`...), e.RelatedObjectType...), '"')
		if e.Stacked != nil {
			doc = append(doc, `,"stacked":[`...)
			for i, c := range stacked {
				if i > 0 {
					doc = append(doc, ',')
				}
				doc = append(append(append(doc, '"'), c...), '"')
			}
			doc = append(doc, ']')
		}
		return append(doc, "}}"...), nil
	}
	key, err := json.Marshal(id)
	if err != nil {
		return nil, fmt.Errorf("encoding the order's redemptions: %w", err)
	}
	body, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encoding the order's redemptions: %w", err)
	}
	doc := make([]byte, 0, len(key)+len(body)+3)
	doc = append(append(append(append(append(doc, '{'), key...), ':'), body...), '}')
	return doc, nil
}

// plainJSON reports whether encoding/json writes s as itself in quotes:
// printable ASCII without the characters it escapes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// saveOrder stores the redeemed order: the one named by id (404 when
// unknown) or source_id (created on first use, in one upsert statement so
// concurrent redemptions agree on one row), else a new one. It keeps the
// calculated order and adds this redemption's entry (under its ID id) to
// its redemptions.
func (w *writer) saveOrder(ctx context.Context, id string, entry orderEntry) (*ent.Order, error) {
	in := w.e.req.order
	if in == nil {
		in = &OrderInput{}
	}
	var orderID string
	switch {
	case in.ID != nil:
		o, err := w.c.Order.Get(ctx, *in.ID)
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("order", *in.ID)
		}
		if err != nil {
			return nil, fmt.Errorf("looking up order: %w", err)
		}
		orderID = o.ID
	case in.SourceID != nil:
		var err error
		orderID, err = w.c.Order.Create().SetSourceID(*in.SourceID).
			OnConflictColumns(order.FieldProjectID, order.FieldSourceID).
			Update(func(u *ent.OrderUpsert) { u.UpdateUpdatedAt() }).ID(ctx)
		if err != nil {
			return nil, fmt.Errorf("saving order: %w", err)
		}
	default:
		return w.createOrder(ctx, in, id, entry)
	}
	// Lock the order row for the read-modify-write of its redemptions map.
	q := w.c.Order.Query().Where(order.ID(orderID))
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
	redemptions[id] = entry.asMap()
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
	if _, err := w.view.setColumns(upd.Mutation()); err != nil {
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
// statement. Its redemptions map ({id: entry}) is encoded once, for its
// calculated document and its column.
func (w *writer) createOrder(ctx context.Context, in *OrderInput, id string, entry orderEntry) (*ent.Order, error) {
	status := order.StatusCREATED
	if in.Status != nil {
		status = order.Status(*in.Status)
	}
	o := &ent.Order{ID: pulid.PrefixOrder + pulid.Hex(9), Status: status, CreatedAt: w.e.now}
	entries, err := entry.document(id)
	if err != nil {
		return nil, err
	}
	w.view = newOrderView(w.e.order, w.e.req.order, o, w.e.customer)
	w.view.Redemptions = entries
	doc, err := w.viewDocument()
	if err != nil {
		return nil, err
	}
	create := w.c.Order.Create().SetID(o.ID).SetCreatedAt(o.CreatedAt).SetStatus(status).
		SetRedemptions(map[string]any{id: entry.asMap()}).SetCalculated(doc).SetMetadata(shape.OrEmptyMap(in.Metadata))
	if w.e.customer != nil {
		create.SetCustomerID(w.e.customer.ID)
	}
	items, err := w.view.setColumns(create.Mutation())
	if err != nil {
		return nil, err
	}
	saved, err := saveOrderRow(ctx, create, encodedOrder{redemptions: entries, items: items})
	if err != nil {
		return nil, fmt.Errorf("saving order: %w", err)
	}
	if err := orders.Written(customerpkg.WithinRedemption(w.e.eventContext(ctx)), nil, saved); err != nil {
		return nil, err
	}
	w.stored = saved
	return saved, nil
}
