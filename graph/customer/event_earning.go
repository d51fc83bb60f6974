package customer

import (
	"context"

	"github.com/promoengine/promoengine/ent"
)

// The loyalty earning hook of the custom event pipeline (sendEvent,
// events.go).

// LoyaltyEarning is the hook through which loyalty earning rules act on
// custom events and segment entries. It is called inside the transaction
// that stores the event, after the event, its counter, referral
// conversion and segment membership are written; an error rolls the whole
// event back. The loyalty area's earning rules implement it (ruleEarning).
type LoyaltyEarning interface {
	// EventRecorded applies the earning rules triggered by the event
	// (trigger.custom_event.schema_id); loyalty is the card the request
	// named, if any.
	EventRecorded(ctx context.Context, ev *ent.CustomEvent, cust *ent.Customer, loyalty *EventLoyaltyInput) error
	// SegmentsEntered applies the earning rules triggered by entering
	// Segments (trigger.segment.id).
	SegmentsEntered(ctx context.Context, cust *ent.Customer, segmentIDs []string) error
	// OrderPaid applies the earning rules triggered by an order that
	// became PAID (trigger.event customer.order.paid); graph/order calls
	// it once per order.
	OrderPaid(ctx context.Context, o *ent.Order, cust *ent.Customer) error
}

// NoLoyaltyEarning earns nothing.
type NoLoyaltyEarning struct{}

// EventRecorded implements LoyaltyEarning.
func (NoLoyaltyEarning) EventRecorded(context.Context, *ent.CustomEvent, *ent.Customer, *EventLoyaltyInput) error {
	return nil
}

// SegmentsEntered implements LoyaltyEarning.
func (NoLoyaltyEarning) SegmentsEntered(context.Context, *ent.Customer, []string) error { return nil }

// OrderPaid implements LoyaltyEarning.
func (NoLoyaltyEarning) OrderPaid(context.Context, *ent.Order, *ent.Customer) error { return nil }

// Earning is the loyalty earning step of the event pipeline: the earning
// rules of the loyalty area, set at wiring (graph/wiring.go). Tests may swap it.
var Earning LoyaltyEarning = NoLoyaltyEarning{}

type noEarningKey struct{}

// WithoutLoyaltyEarning returns ctx in which events are recorded (and move
// Segments) but earn nothing in loyalty programs: client-side events of a
// project that has not enabled client_loyalty_events_enabled.
func WithoutLoyaltyEarning(ctx context.Context) context.Context {
	return context.WithValue(ctx, noEarningKey{}, true)
}

// Earns reports whether events recorded with ctx earn loyalty points (WithoutLoyaltyEarning).
func Earns(ctx context.Context) bool { return ctx.Value(noEarningKey{}) == nil }

// EventLoyaltyInput names the loyalty card an event is attributed to.
type EventLoyaltyInput struct {
	Code string `json:"code"`
}

// inRedemptionKey marks a context as a redemption's own write of its order.
type inRedemptionKey struct{}

// WithinRedemption marks ctx as a redemption's write of its order
// (graph/redemption): earning on that order runs while the redemption's
// vouchers are being booked, so it must not start another redemption of a
// card (loyalty auto-redeem waits for the daily job there).
func WithinRedemption(ctx context.Context) context.Context {
	return context.WithValue(ctx, inRedemptionKey{}, true)
}

// InRedemption tells whether ctx is a redemption's write of its order.
func InRedemption(ctx context.Context) bool {
	v, _ := ctx.Value(inRedemptionKey{}).(bool)
	return v
}
