package customer

import (
	"context"

	"github.com/promoengine/promoengine/ent"
)

// Earnings runs several LoyaltyEarning hooks in turn (the v2 area's rules
// and the v1 programs' rules); the first error stops it.
type Earnings []LoyaltyEarning

// EventRecorded implements LoyaltyEarning.
func (es Earnings) EventRecorded(ctx context.Context, ev *ent.CustomEvent, cust *ent.Customer, loyalty *EventLoyaltyInput) error {
	for _, e := range es {
		if err := e.EventRecorded(ctx, ev, cust, loyalty); err != nil {
			return err
		}
	}
	return nil
}

// SegmentsEntered implements LoyaltyEarning.
func (es Earnings) SegmentsEntered(ctx context.Context, cust *ent.Customer, segmentIDs []string) error {
	for _, e := range es {
		if err := e.SegmentsEntered(ctx, cust, segmentIDs); err != nil {
			return err
		}
	}
	return nil
}

// OrderPaid implements LoyaltyEarning.
func (es Earnings) OrderPaid(ctx context.Context, o *ent.Order, cust *ent.Customer) error {
	for _, e := range es {
		if err := e.OrderPaid(ctx, o, cust); err != nil {
			return err
		}
	}
	return nil
}
