package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Refunds of order payments. A card definition's refunds.spent_points
// {type: REFUNDABLE, methods: [{type: RETURN_POINTS, mode: REFUND_ALL}]}
// gives the points an order's APPROVED payments spent back to their cards
// when the order is refunded — here, when it moves to CANCELED (orders
// have no REFUNDED status; graph/order calls ReturnOrderPayments). Each
// payment returns once: one guarded UPDATE claims it (refund_transaction_id
// from null, the order row locked by the order's write), then the points
// are booked as a POINTS_RETURNED card transaction through bookCardPoints
// (the card lock and the shared bucket store, graph/points). REFUND_ITEM
// and REFUND_AMOUNT are stored but return nothing (the orders resource
// has no item or partial refunds); earned_points is stored, not applied.

// orderReturnReason is the returned points' card transaction reason.
const orderReturnReason = "Points returned from order payment"

// returnsAll tells whether a definition gives spent points back on a full
// refund (refunds.spent_points REFUNDABLE by RETURN_POINTS, REFUND_ALL).
func returnsAll(d *ent.CardDefinition) bool {
	r := CardSettingsOf(d).Refunds.SpentPoints // card_settings.go: checked when stored
	if r == nil || r.Type != "REFUNDABLE" {
		return false
	}
	for _, m := range r.Methods {
		if m.Type == "RETURN_POINTS" && m.Mode != nil && *m.Mode == "REFUND_ALL" {
			return true
		}
	}
	return false
}

// ReturnOrderPayments gives the points of an order's APPROVED payments
// back to their cards (those whose card definition returns spent points
// on REFUND_ALL), each once; the caller holds the order's row lock (the
// order's write) and calls it when the order is canceled.
func ReturnOrderPayments(ctx context.Context, orderID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	pays, err := c.OrderPayment.Query().Where(orderpayment.OrderID(orderID), orderpayment.Status(paymentApproved),
		orderpayment.RefundTransactionIDIsNil()).Order(orderpayment.ByCreatedAt(), orderpayment.ByID()).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the order's payments: %w", err)
	}
	defs := map[string]bool{}
	for _, pay := range pays {
		returns, seen := defs[pay.CardDefinitionID]
		if !seen {
			d, err := c.CardDefinition.Get(ctx, pay.CardDefinitionID)
			if err != nil && !ent.IsNotFound(err) {
				return fmt.Errorf("reading card definition: %w", err)
			}
			returns = d != nil && returnsAll(d)
			defs[pay.CardDefinitionID] = returns
		}
		if returns {
			if err := returnOrderPayment(ctx, c, pay); err != nil {
				return err
			}
		}
	}
	return nil
}

// returnOrderPayment claims one payment's return and books it: nothing
// when another write claimed it first.
func returnOrderPayment(ctx context.Context, c *ent.Client, pay *ent.OrderPayment) error {
	claim := "lctx_pending" // replaced by the transaction's id below, in the same transaction
	n, err := c.OrderPayment.Update().Where(orderpayment.ID(pay.ID), orderpayment.RefundTransactionIDIsNil()).
		SetRefundTransactionID(claim).SetUpdatedAt(clock.At(ctx)).Save(ctx)
	if err != nil {
		return fmt.Errorf("claiming the payment's return: %w", err)
	}
	if n == 0 {
		return nil
	}
	reason := orderReturnReason
	tx, err := bookCardPoints(ctx, pay.CardID, cardMove{typ: cardtransaction.TypePOINTS_RETURNED, points: pay.Points,
		reason: &reason, sourceID: &pay.OrderID})
	if err != nil {
		return err
	}
	saved, err := c.OrderPayment.UpdateOneID(pay.ID).SetRefundTransactionID(tx.ID).Save(ctx)
	if err != nil {
		return fmt.Errorf("recording the payment's return: %w", err)
	}
	return emitOrderTransaction(ctx, saved, tx)
}
