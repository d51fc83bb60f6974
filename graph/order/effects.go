package order

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	entorder "github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/refund"
	"github.com/promoengine/promoengine/graph/webhook"

	customerdomain "github.com/promoengine/promoengine/graph/customer"
)

// Webhook events of orders.
const (
	EventOrderCreated  = "order.created"
	EventOrderUpdated  = "order.updated"
	EventOrderPaid     = "order.paid"
	EventOrderCanceled = "order.canceled"
)

// writeKind says which side effects a write of an order has.
type writeKind int

const (
	// direct: a write of the orders resource (REST, GraphQL).
	direct writeKind = iota
	// implicit: the order of a redemption or rollback, whose customer
	// activities are the redemption's own (customer.redemption.*).
	implicit
	// imported: history (POST /v1/orders/import).
	imported
)

// Written applies the side effects of an order's write, in the write's
// transaction: before is the order as it was (nil for a new one), after
// as written. Validation and redemption call it after storing their
// implicit order, so orders they make are the same resource.
func Written(ctx context.Context, before, after *ent.Order) error {
	return written(ctx, before, after, implicit)
}

// written applies the side effects of a write: the customer's
// summary.orders counters always; unless imported, the webhook events
// and, once per order, the customer.order.paid earning rules; for a
// direct write, the customer's customer.order.* activities too.
func written(ctx context.Context, before, after *ent.Order, kind writeKind) error {
	if before != nil && blank(before) {
		before = nil // a row the source_id upsert inserted in this write
	}
	if err := moveCounters(ctx, before, after); err != nil {
		return err
	}
	if kind == imported {
		return nil
	}
	names := changes(before, after)
	if err := emit(ctx, after, names); err != nil {
		return err
	}
	if kind == direct {
		if err := recordActivities(ctx, after, names); err != nil {
			return err
		}
	}
	if err := returnPaymentsOnCancel(ctx, before, after); err != nil {
		return err
	}
	return earnOnPaid(ctx, before, after)
}

// returnPaymentsOnCancel gives the points that paid (part of) the order
// back when a write cancels it, and takes back what it earned (v1
// order.paid accruals always; v2 order payments' refunds, graph/loyalty/refund/order_refunds.go,
// order_earned_refunds.go; each payment once). A write that lowers a
// paid order's total or its lines' units without canceling it is a
// partial refund (graph/loyalty/refund/order_partial_refunds.go).
func returnPaymentsOnCancel(ctx context.Context, before, after *ent.Order) error {
	if before != nil && before.Status != entorder.StatusCANCELED && after.Status != entorder.StatusCANCELED &&
		(after.TotalAmount < before.TotalAmount || !reflect.DeepEqual(before.Items, after.Items)) {
		return refund.RefundOrderPayments(ctx, after)
	}
	if after.Status != entorder.StatusCANCELED || (before != nil && before.Status == entorder.StatusCANCELED) {
		return nil
	}
	if err := refund.ReturnOrderPayments(ctx, after.ID); err != nil {
		return err
	}
	if RevokeV1OrderAccruals != nil {
		if err := RevokeV1OrderAccruals(ctx, after); err != nil {
			return err
		}
	}
	return refund.RevokeOrderEarnings(ctx, after)
}

// RevokeV1OrderAccruals takes back the points a canceled order's v1
// order.paid rules credited (graph/loyaltyv1 RevokeOrderAccruals, set at
// wiring; nil: none are taken back).
var RevokeV1OrderAccruals func(ctx context.Context, o *ent.Order) error

// changes names what a write did: created or updated, and the status it
// moved to (paid, canceled, fulfilled) when it moved.
func changes(before, after *ent.Order) []string {
	out := []string{"created"}
	moved := after.Status != entorder.StatusCREATED
	if before != nil {
		out = []string{"updated"}
		moved = after.Status != before.Status
	}
	if moved {
		out = append(out, strings.ToLower(after.Status.String()))
	}
	return out
}

// emit writes the webhook events of the changes (order.created,
// order.updated, order.paid, order.canceled; fulfilled has no event).
func emit(ctx context.Context, o *ent.Order, names []string) error {
	var events []webhook.Event
	for _, n := range names {
		if n == "fulfilled" {
			continue
		}
		data := map[string]any{"order": ViewOf(o)}
		events = append(events, webhook.Event{Name: "order." + n, ObjectType: "order", ObjectID: o.ID, Data: data})
	}
	return webhook.EmitAll(ctx, events...)
}

// recordActivities stores the customer's activities of the changes
// (customer.order.created, .updated, .paid, .canceled, .fulfilled) with
// the order as it is now; an order without a customer has none.
func recordActivities(ctx context.Context, o *ent.Order, names []string) error {
	if o.CustomerID == nil {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	doc, err := document(o)
	if err != nil {
		return err
	}
	rows := make([]*ent.OrderEventCreate, len(names))
	for i, n := range names {
		// Ids in creation order: a write's activities tie on created_at.
		rows[i] = c.OrderEvent.Create().SetID(pulid.PrefixOrderEvent + pulid.Ordered(2)).SetOrderID(o.ID).
			SetCustomerID(*o.CustomerID).SetType("customer.order." + n).SetOrder(doc)
	}
	if err := c.OrderEvent.CreateBulk(rows...).Exec(ctx); err != nil {
		return fmt.Errorf("recording the order's activities: %w", err)
	}
	return nil
}

// counted is the amount o adds to its customer's summary.orders now: its
// amount while it is PAID or FULFILLED and has a customer.
func counted(o *ent.Order) *int64 {
	if o == nil || o.CustomerID == nil || (o.Status != entorder.StatusPAID && o.Status != entorder.StatusFULFILLED) {
		return nil
	}
	a := o.Amount
	return &a
}

// moveCounters moves the customers' summary.orders counters by what the
// write changed (the order's counted amount before and after, perhaps
// under another customer), with relative updates in the write's
// transaction; the order's row records what it counts now. The order's
// row is locked (or new), so no concurrent write of it counts twice.
func moveCounters(ctx context.Context, before, after *ent.Order) error {
	var was *int64
	var wasCustomer *string
	if before != nil {
		was, wasCustomer = before.CountedAmount, before.CustomerID
	}
	now := counted(after)
	same := (was == nil) == (now == nil) && (was == nil || *was == *now) &&
		(was == nil || *wasCustomer == *after.CustomerID)
	if same {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if was != nil && wasCustomer != nil {
		err := c.Customer.Update().Where(customer.ID(*wasCustomer)).
			AddOrdersTotalAmount(-*was).AddOrdersTotalCount(-1).Exec(ctx)
		if err != nil {
			return fmt.Errorf("updating the customer's order counters: %w", err)
		}
	}
	upd := c.Order.UpdateOneID(after.ID)
	if now != nil {
		err := c.Customer.Update().Where(customer.ID(*after.CustomerID)).
			AddOrdersTotalAmount(*now).AddOrdersTotalCount(1).
			SetOrdersLastAmount(*now).SetOrdersLastDate(clock.Now()).Exec(ctx)
		if err != nil {
			return fmt.Errorf("updating the customer's order counters: %w", err)
		}
		upd.SetCountedAmount(*now)
	} else {
		upd.ClearCountedAmount()
	}
	if err := upd.Exec(ctx); err != nil {
		return fmt.Errorf("recording what the order counts: %w", err)
	}
	after.CountedAmount = now
	return nil
}

// earnOnPaid fires the customer.order.paid earning rules when a write
// moves the order to PAID with a customer, the first time only (paid,
// canceled and paid again earns once): the claim is one guarded update
// (paid_earned_at from null), so two requests or two processes that both
// move it to PAID credit once — on PostgreSQL the second waits for the
// first's row lock and then finds the claim taken.
func earnOnPaid(ctx context.Context, before, o *ent.Order) error {
	if o.Status != entorder.StatusPAID || o.CustomerID == nil || o.PaidEarnedAt != nil ||
		(before != nil && before.Status == entorder.StatusPAID) {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	now := clock.Now()
	n, err := c.Order.Update().Where(entorder.ID(o.ID), entorder.PaidEarnedAtIsNil()).SetPaidEarnedAt(now).Save(ctx)
	if err != nil {
		return fmt.Errorf("claiming the order's earning: %w", err)
	}
	if n == 0 {
		return nil
	}
	o.PaidEarnedAt = &now
	cust, err := c.Customer.Get(ctx, *o.CustomerID)
	if err != nil {
		return fmt.Errorf("reading the order's customer: %w", err)
	}
	return customerdomain.Earning.OrderPaid(ctx, o, cust)
}
