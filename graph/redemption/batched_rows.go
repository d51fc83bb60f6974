package redemption

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// In the one-statement redemption (statement.go) the writer's rows join
// the write batch as hand-written SQL of fixed text rather than through
// ent's builders: the order, the redemptions and the voucher counters are
// set on the builders as everywhere else (one place says what a row
// holds), and here read back from the builder's mutation into a prepared
// INSERT or UPDATE — no hooks, no SQL generation per request, the
// calculated document bound as it was encoded. Each writer refuses a
// mutation that sets a column it does not write (errUnbatchedColumn): the
// request then takes the transactional path, so a field added to the
// schema is never dropped here. TestOneStatementRedemptionMatchesTransactionalPath
// compares what both paths store.

// errUnbatchedColumn: a mutation sets a column the hand-written statement
// does not write.
var errUnbatchedColumn = fmt.Errorf("%w: a column the hand-written statement does not write", entdb.ErrNotBatchable)

// orderColumns are the columns of a new order the batch writes, in the
// order of insertOrderSQL's placeholders.
var orderColumns = []string{order.FieldID, order.FieldProjectID, order.FieldCreatedAt, order.FieldStatus,
	order.FieldCustomerID, order.FieldCalculated, order.FieldRedemptions, order.FieldMetadata, order.FieldAmount,
	order.FieldDiscountAmount, order.FieldItemsDiscountAmount, order.FieldTotalDiscountAmount, order.FieldTotalAmount,
	order.FieldAppliedDiscountAmount, order.FieldItemsAppliedDiscountAmount, order.FieldTotalAppliedDiscountAmount,
	order.FieldItems}

var (
	insertOrderSQL = insertSQL(order.Table, orderColumns, 1)
	orderColumnSet = newColumnSet(orderColumns)
)

// encodedOrder are documents of a new order already encoded (nil: not
// at hand), which the write batch binds as they are instead of encoding
// the row's values again: each must be the encoding of the value the
// mutation sets.
type encodedOrder struct {
	redemptions, items json.RawMessage
}

// saveOrderRow saves a new order: in a write batch as a hand-written
// INSERT (binding the documents of pre that are set), otherwise through ent.
func saveOrderRow(ctx context.Context, create *ent.OrderCreate, pre encodedOrder) (*ent.Order, error) {
	b := entdb.BatchFrom(ctx)
	if b == nil {
		return create.Save(ctx)
	}
	m := create.Mutation()
	if err := onlyColumns(m.Fields(), orderColumnSet); err != nil {
		return nil, err
	}
	v, _ := viewer.FromContext(ctx)
	o := &ent.Order{ProjectID: v.ProjectID, Status: order.DefaultStatus, Metadata: map[string]any{}, Redemptions: map[string]any{}}
	o.ID, _ = m.ID()
	o.CreatedAt, _ = m.CreatedAt()
	if s, ok := m.Status(); ok {
		o.Status = s
	}
	if id, ok := m.CustomerID(); ok {
		o.CustomerID = &id
	}
	o.Calculated, _ = m.Calculated()
	if r, ok := m.Redemptions(); ok {
		o.Redemptions = r
	}
	if md, ok := m.Metadata(); ok {
		o.Metadata = md
	}
	o.Amount, _ = m.Amount()
	o.DiscountAmount, _ = m.DiscountAmount()
	o.ItemsDiscountAmount, _ = m.ItemsDiscountAmount()
	o.TotalDiscountAmount, _ = m.TotalDiscountAmount()
	o.TotalAmount, _ = m.TotalAmount()
	o.AppliedDiscountAmount, _ = m.AppliedDiscountAmount()
	o.ItemsAppliedDiscountAmount, _ = m.ItemsAppliedDiscountAmount()
	o.TotalAppliedDiscountAmount, _ = m.TotalAppliedDiscountAmount()
	o.Items, _ = m.Items()
	if o.ID == "" || o.CreatedAt.IsZero() {
		return nil, errUnbatchedColumn
	}
	docs := make([]any, 4)
	for i, doc := range []any{o.Calculated, o.Redemptions, o.Metadata, o.Items} {
		switch {
		case i == 1 && pre.redemptions != nil:
			doc = pre.redemptions
		case i == 3 && pre.items != nil:
			doc = pre.items
		}
		arg, err := jsonArg(doc)
		if err != nil {
			return nil, fmt.Errorf("encoding the order: %w", err)
		}
		docs[i] = arg
	}
	args := []any{o.ID, o.ProjectID, o.CreatedAt, string(o.Status), o.CustomerID, docs[0], docs[1], docs[2],
		o.Amount, o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount, o.TotalAmount,
		o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount, o.TotalAppliedDiscountAmount, docs[3]}
	if err := b.Insert(insertOrderSQL, args...); err != nil {
		return nil, err
	}
	return o, nil
}

// redemptionColumns are the columns of a redemption the batch writes, in
// the order of redemptionArgs.
var redemptionColumns = []string{redemption.FieldID, redemption.FieldProjectID, redemption.FieldCreatedAt,
	redemption.FieldObject, redemption.FieldResult, redemption.FieldStatus, redemption.FieldParentID,
	redemption.FieldVoucherID, redemption.FieldVoucherCode, redemption.FieldCampaignID, redemption.FieldCustomerID,
	redemption.FieldOrderID, redemption.FieldTrackingID, redemption.FieldSessionKey, redemption.FieldRelatedObjectType,
	redemption.FieldRelatedObjectID, redemption.FieldAmount, redemption.FieldAppliedDiscount, redemption.FieldMetadata,
	redemption.FieldOrder, redemption.FieldReward, redemption.FieldChannel}

var redemptionColumnSet = newColumnSet(redemptionColumns)

// insertRedemptionsSQL[n] inserts n redemptions (a parent and its children
// are one statement).
var insertRedemptionsSQL = func() (out [maxRedeemables + 2]string) {
	for n := 1; n < len(out); n++ {
		out[n] = insertSQL(redemption.Table, redemptionColumns, n)
	}
	return out
}()

// saveRedemptionRows saves redemptions: in a write batch as one
// hand-written INSERT, otherwise through ent.
func saveRedemptionRows(ctx context.Context, c *ent.Client, creates ...*ent.RedemptionCreate) ([]*ent.Redemption, error) {
	b := entdb.BatchFrom(ctx)
	if b == nil || len(creates) >= len(insertRedemptionsSQL) {
		return c.Redemption.CreateBulk(creates...).Save(ctx)
	}
	v, _ := viewer.FromContext(ctx)
	rows := make([]*ent.Redemption, len(creates))
	args := make([]any, 0, len(creates)*len(redemptionColumns))
	var docs sharedDocs
	for i, create := range creates {
		r, a, err := redemptionRow(create.Mutation(), v.ProjectID, &docs)
		if err != nil {
			return nil, err
		}
		rows[i] = r
		args = append(args, a...)
	}
	if err := b.Insert(insertRedemptionsSQL[len(creates)], args...); err != nil {
		return nil, err
	}
	return rows, nil
}

// sharedDocs encodes each map document once per statement: the rows of a
// request share their metadata and channel maps (writer.entry).
type sharedDocs struct {
	maps []unsafe.Pointer
	args []any
}

// arg is jsonArg(doc), encoded once for every row that holds the same map.
func (d *sharedDocs) arg(doc any) (any, error) {
	m, ok := doc.(map[string]any)
	if !ok || m == nil {
		return jsonArg(doc)
	}
	p := reflect.ValueOf(m).UnsafePointer()
	for i, seen := range d.maps {
		if seen == p {
			return d.args[i], nil
		}
	}
	arg, err := jsonArg(m)
	if err != nil {
		return nil, err
	}
	d.maps, d.args = append(d.maps, p), append(d.args, arg)
	return arg, nil
}

// redemptionRow is the redemption m creates and its values in the order of
// redemptionColumns (its map documents encoded through docs).
func redemptionRow(m *ent.RedemptionMutation, projectID string, docs *sharedDocs) (*ent.Redemption, []any, error) {
	if err := onlyColumns(m.Fields(), redemptionColumnSet); err != nil {
		return nil, nil, err
	}
	r := &ent.Redemption{ProjectID: projectID, Metadata: map[string]any{}}
	r.ID, _ = m.ID()
	r.CreatedAt, _ = m.CreatedAt()
	r.Object, _ = m.Object()
	r.Result, _ = m.Result()
	r.Status, _ = m.Status()
	r.ParentID = optional(m.ParentID())
	r.VoucherID = optional(m.VoucherID())
	r.VoucherCode = optional(m.VoucherCode())
	r.CampaignID = optional(m.CampaignID())
	r.CustomerID = optional(m.CustomerID())
	r.OrderID = optional(m.OrderID())
	r.TrackingID = optional(m.TrackingID())
	r.SessionKey = optional(m.SessionKey())
	r.RelatedObjectType, _ = m.RelatedObjectType()
	r.RelatedObjectID, _ = m.RelatedObjectID()
	r.Amount = optional(m.Amount())
	r.AppliedDiscount, _ = m.AppliedDiscount()
	if md, ok := m.Metadata(); ok {
		r.Metadata = md
	}
	r.Order, _ = m.Order()
	r.Reward, _ = m.Reward()
	r.Channel, _ = m.Channel()
	if r.ID == "" || r.CreatedAt.IsZero() || r.Object == "" || r.Result == "" || r.Status == "" {
		return nil, nil, errUnbatchedColumn
	}
	args := []any{r.ID, r.ProjectID, r.CreatedAt, string(r.Object), string(r.Result), string(r.Status), r.ParentID,
		r.VoucherID, r.VoucherCode, r.CampaignID, r.CustomerID, r.OrderID, r.TrackingID, r.SessionKey,
		r.RelatedObjectType, r.RelatedObjectID, r.Amount, r.AppliedDiscount}
	for _, doc := range []any{r.Metadata, r.Order, r.Reward, r.Channel} {
		b, err := docs.arg(doc)
		if err != nil {
			return nil, nil, fmt.Errorf("encoding the redemption: %w", err)
		}
		args = append(args, b)
	}
	return r, args, nil
}
