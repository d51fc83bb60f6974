package order

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	entorder "github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateOrder serves REST POST /v1/orders and createOrder: an upsert. An
// id names an existing order (404 when unknown), which gets the sent
// fields; a source_id finds the order or creates it (one row however many
// requests race for it); else a new order. Its customer and referrer are
// found or upserted as validations do.
func CreateOrder(ctx context.Context, in OrderInput) (*ent.Order, error) {
	return write(ctx, &in, direct)
}

// UpdateOrder serves REST PUT /v1/orders/{orderId} and updateOrder: the
// sent fields change (ref is the order's id or source_id; 404 when
// unknown). Items, when sent, replace the lines and the amounts are
// worked out again.
func UpdateOrder(ctx context.Context, ref string, in OrderInput) (*ent.Order, error) {
	if err := in.RefuseNull("status"); err != nil {
		return nil, err
	}
	o, err := Order(ctx, ref)
	if err != nil {
		return nil, err
	}
	in.ID, in.SourceID = &o.ID, nil
	return write(ctx, &in, direct)
}

// Order serves REST GET /v1/orders/{orderId} and the order query: ref is
// the order's id or its source_id.
func Order(ctx context.Context, ref string) (*ent.Order, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := c.Order.Query().Where(entorder.Or(entorder.ID(ref), entorder.SourceID(ref))).Limit(2).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading order: %w", err)
	}
	return store.PreferExact(found, func(o *ent.Order) bool { return o.ID == ref }, "order", ref)
}

// write creates or changes the order in names (by id or source_id, else
// a new one) with the side effects of its kind (effects.go).
func write(ctx context.Context, in *OrderInput, kind writeKind) (*ent.Order, error) {
	if err := checkInput(in); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	var row *ent.Order
	switch {
	case in.ID != nil:
		if row, err = lockOrder(ctx, c, *in.ID); ent.IsNotFound(err) {
			return nil, apperr.NotFound("order", *in.ID)
		}
	case in.SourceID != nil:
		// One statement finds or inserts the row, so racing creates of a
		// new source_id agree on one order; the first to lock it fills it.
		var id string
		id, err = c.Order.Create().SetSourceID(*in.SourceID).
			OnConflictColumns(entorder.FieldProjectID, entorder.FieldSourceID).
			Ignore().ID(ctx)
		if err != nil {
			return nil, fmt.Errorf("saving order: %w", err)
		}
		row, err = lockOrder(ctx, c, id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading order: %w", err)
	}
	var before *ent.Order
	if row != nil && !blank(row) {
		before = row
	}
	next, err := nextState(ctx, before, in)
	if err != nil {
		return nil, err
	}
	after, err := persist(ctx, c, row, next)
	if err != nil {
		return nil, err
	}
	if err := written(ctx, before, after, kind); err != nil {
		return nil, err
	}
	return after, nil
}

// checkInput refuses a bad status, too many lines or a bad line before
// anything is read or written.
func checkInput(in *OrderInput) error {
	if err := checkStatus(in.Status); err != nil {
		return err
	}
	if in.SourceID != nil && (*in.SourceID == "" || len(*in.SourceID) > 500) {
		return apperr.InvalidPayload("Property .source_id must be 1 to 500 characters long")
	}
	return checkItems(in.Items)
}

// lockOrder reads an order for a change, locking its row on PostgreSQL
// (SQLite's writers take turns anyway), so concurrent changes of one
// order apply one after the other and each sees the one before.
func lockOrder(ctx context.Context, c *ent.Client, id string) (*ent.Order, error) {
	q := c.Order.Query().Where(entorder.ID(id))
	if store.IsPostgres(ctx) {
		q = q.ForUpdate()
	}
	return q.Only(ctx)
}

// blank reports a row the source_id upsert has just inserted: never
// calculated, so the order does not exist yet as far as anyone saw.
func blank(o *ent.Order) bool {
	s := string(o.Calculated)
	return s == "" || s == "{}" || s == "null"
}

// nextState is the order after in is applied to before (nil: a new order).
func nextState(ctx context.Context, before *ent.Order, in *OrderInput) (*ent.Order, error) {
	next := &ent.Order{Status: entorder.StatusCREATED, Metadata: map[string]any{}, Redemptions: map[string]any{},
		CreatedAt: clock.Now(), SourceID: in.SourceID}
	if before != nil {
		cp := *before
		next = &cp
		now := clock.Now()
		next.UpdatedAt = &now
	}
	if in.Status != nil {
		next.Status = entorder.Status(*in.Status)
	}
	if in.Metadata != nil {
		next.Metadata = in.Metadata
	}
	if before != nil && in.IsNull("metadata") {
		next.Metadata = map[string]any{}
	}
	cust, err := resolveCustomer(ctx, in.Customer, in.CustomerID)
	if err != nil {
		return nil, err
	}
	if cust != nil {
		next.CustomerID = &cust.ID
	} else if before != nil && (in.IsNull("customer") || in.IsNull("customer_id")) {
		next.CustomerID = nil // moveCounters takes the order off the customer's summary
	}
	ref, err := resolveCustomer(ctx, in.Referrer, in.ReferrerID)
	if err != nil {
		return nil, err
	}
	if ref != nil {
		next.ReferrerID = &ref.ID
	} else if before != nil && (in.IsNull("referrer") || in.IsNull("referrer_id")) {
		next.ReferrerID = nil
	}
	if before != nil && in.Items == nil && in.Amount == nil && in.DiscountAmount == nil && !in.IsNull("discount_amount") {
		return next, nil // the amounts stay
	}
	if err := recalculate(ctx, before, in, next); err != nil {
		return nil, err
	}
	return next, nil
}

// recalculate works out next's amounts and lines from in, and from
// before's lines and order-level discount where in leaves them out.
func recalculate(ctx context.Context, before *ent.Order, in *OrderInput, next *ent.Order) error {
	items, discountAmount := in.Items, in.DiscountAmount
	if before != nil {
		if items == nil {
			stored, err := storedItems(before)
			if err != nil {
				return err
			}
			items = stored
		}
		if discountAmount == nil && before.DiscountAmount > 0 && !in.IsNull("discount_amount") {
			d := before.DiscountAmount
			discountAmount = &d
		}
	}
	refs, err := catalogRefs(ctx, items)
	if err != nil {
		return err
	}
	calc, err := calculate(in.Amount, discountAmount, items, refs)
	if err != nil {
		return err
	}
	next.Amount, next.DiscountAmount = calc.Amount, calc.DiscountAmount
	next.ItemsDiscountAmount, next.TotalDiscountAmount = calc.ItemsDiscountAmount(), calc.TotalDiscountAmount()
	next.TotalAmount = calc.TotalAmount()
	next.AppliedDiscountAmount, next.ItemsAppliedDiscountAmount, next.TotalAppliedDiscountAmount = 0, 0, 0
	next.Items = make([]map[string]any, len(items))
	for i, it := range items {
		next.Items[i] = lineJSON(it, refs[i], calc.Items[i])
	}
	return nil
}

// storedItems are an order's stored lines as input lines (their JSON
// names are the input's).
func storedItems(o *ent.Order) ([]*ItemInput, error) {
	b, err := json.Marshal(o.Items)
	if err != nil {
		return nil, fmt.Errorf("encoding the stored lines: %w", err)
	}
	var out []*ItemInput
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decoding the stored lines: %w", err)
	}
	return out, nil
}

// resolveCustomer is the customer an order names: a customer object
// (found or upserted as validations do) or customer_id (id or source_id;
// 404 when unknown). nil when neither is sent.
func resolveCustomer(ctx context.Context, in *customer.CustomerInput, id *string) (*ent.Customer, error) {
	switch {
	case in != nil:
		return customer.ResolveCustomer(ctx, in)
	case id != nil:
		return customer.ByIDOrSourceID(ctx, *id)
	}
	return nil, nil
}

// persist writes next: a new row (row nil) or over row, with the
// calculated document of what is written.
func persist(ctx context.Context, c *ent.Client, row, next *ent.Order) (*ent.Order, error) {
	if row == nil {
		next.ID = pulid.PrefixOrder + pulid.Hex(9)
	} else {
		next.ID, next.CreatedAt = row.ID, row.CreatedAt
	}
	if next.Items == nil {
		next.Items = []map[string]any{}
	}
	doc, err := document(next)
	if err != nil {
		return nil, err
	}
	if row == nil {
		saved, err := c.Order.Create().SetID(next.ID).SetCreatedAt(next.CreatedAt).SetNillableSourceID(next.SourceID).
			SetStatus(next.Status).SetNillableCustomerID(next.CustomerID).SetNillableReferrerID(next.ReferrerID).
			SetCalculated(doc).SetRedemptions(shape.OrEmptyMap(next.Redemptions)).SetMetadata(next.Metadata).
			SetAmount(next.Amount).SetDiscountAmount(next.DiscountAmount).SetItemsDiscountAmount(next.ItemsDiscountAmount).
			SetTotalDiscountAmount(next.TotalDiscountAmount).SetTotalAmount(next.TotalAmount).
			SetAppliedDiscountAmount(next.AppliedDiscountAmount).SetItemsAppliedDiscountAmount(next.ItemsAppliedDiscountAmount).
			SetTotalAppliedDiscountAmount(next.TotalAppliedDiscountAmount).SetItems(next.Items).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("saving order: %w", err)
		}
		return saved, nil
	}
	upd := c.Order.UpdateOne(row).SetStatus(next.Status).SetNillableCustomerID(next.CustomerID).
		SetNillableReferrerID(next.ReferrerID).SetCalculated(doc).SetMetadata(next.Metadata).
		SetAmount(next.Amount).SetDiscountAmount(next.DiscountAmount).SetItemsDiscountAmount(next.ItemsDiscountAmount).
		SetTotalDiscountAmount(next.TotalDiscountAmount).SetTotalAmount(next.TotalAmount).
		SetAppliedDiscountAmount(next.AppliedDiscountAmount).SetItemsAppliedDiscountAmount(next.ItemsAppliedDiscountAmount).
		SetTotalAppliedDiscountAmount(next.TotalAppliedDiscountAmount).SetItems(next.Items)
	if next.CustomerID == nil {
		upd.ClearCustomerID()
	}
	if next.ReferrerID == nil {
		upd.ClearReferrerID()
	}
	if next.UpdatedAt == nil {
		upd.ClearUpdatedAt() // the row a source_id upsert inserted: new to everyone
	} else {
		upd.SetUpdatedAt(*next.UpdatedAt)
	}
	saved, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating order: %w", err)
	}
	return saved, nil
}
