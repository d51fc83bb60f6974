package refund

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/payment"
)

// Refunds of order payments. A card definition's refunds.spent_points
// {type: REFUNDABLE, methods: [{type: RETURN_POINTS, mode}]} gives the
// points an order's APPROVED payments spent back to their cards:
//   - REFUND_ALL: everything not yet returned when the order is refunded —
//     here, when it moves to CANCELED (orders have no REFUNDED status;
//     graph/order calls ReturnOrderPayments). One guarded UPDATE claims
//     the payment (refund_transaction_id from null), so each returns once.
//   - REFUND_AMOUNT / REFUND_ITEM (partial refunds, order_partial_refunds.go):
//     an order write that lowers the order's total_amount, or the
//     quantities of its lines, gives back the points' proportional share.
//
// Every return is booked as a POINTS_RETURNED card transaction through
// bookCardPoints (the card lock and the shared bucket store, graph/points)
// and counted in the payment's returned_points, which only a
// compare-and-set UPDATE moves: a return books target − returned_points
// only after moving returned_points from the value it read to the target,
// so two writes racing on one payment book its points once (the order
// row is locked by the order's write as well). earned_points
// (order_earned_refunds.go) revokes what the order earned when it is
// canceled.

// orderReturnReason is the returned points' card transaction reason.
const orderReturnReason = "Points returned from order payment"

// returnsAll tells whether a definition gives spent points back on a full
// refund (refunds.spent_points REFUNDABLE by RETURN_POINTS, REFUND_ALL).
func returnsAll(d *ent.CardDefinition) bool {
	r := loyalty.CardSettingsOf(d).Refunds.SpentPoints // card_settings.go: checked when stored
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
	pays, err := c.OrderPayment.Query().Where(orderpayment.OrderID(orderID), orderpayment.Status(payment.PaymentApproved),
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

// returnOrderPayment claims one payment's full return and books what
// partial refunds have not given back yet: nothing when another write
// claimed it first.
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
	// The claim holds the payment's row: its returned_points is current.
	returned, err := c.OrderPayment.Query().Where(orderpayment.ID(pay.ID)).Select(orderpayment.FieldReturnedPoints).Int(ctx)
	if err != nil {
		return fmt.Errorf("reading the payment's returns: %w", err)
	}
	tx, saved, err := bookReturn(ctx, c, pay, int64(returned), pay.Points, orderReturnReason)
	if err != nil {
		return err
	}
	if tx == nil { // partial refunds gave everything back already: name the last of them
		last, err := c.CardTransaction.Query().Where(cardtransaction.CardID(pay.CardID), cardtransaction.SourceID(pay.OrderID),
			cardtransaction.TypeEQ(cardtransaction.TypePOINTS_RETURNED)).
			Order(ent.Desc(cardtransaction.FieldCreatedAt), ent.Desc(cardtransaction.FieldID)).First(ctx)
		if err != nil {
			return fmt.Errorf("reading the payment's last return: %w", err)
		}
		_, err = c.OrderPayment.UpdateOneID(pay.ID).SetRefundTransactionID(last.ID).Save(ctx)
		return err
	}
	if saved, err = c.OrderPayment.UpdateOneID(pay.ID).SetRefundTransactionID(tx.ID).Save(ctx); err != nil {
		return fmt.Errorf("recording the payment's return: %w", err)
	}
	return payment.EmitOrderTransaction(ctx, saved, tx)
}

// bookReturn moves pay's returned_points from returned (as read) to
// target with one compare-and-set UPDATE and books the difference as a
// POINTS_RETURNED card transaction. Nothing is booked when target is not
// above returned, or when another write moved returned_points first (the
// caller's next read sees it).
func bookReturn(ctx context.Context, c *ent.Client, pay *ent.OrderPayment, returned, target int64, reason string) (*ent.CardTransaction, *ent.OrderPayment, error) {
	target = min(target, pay.Points)
	if target <= returned {
		return nil, nil, nil
	}
	n, err := c.OrderPayment.Update().Where(orderpayment.ID(pay.ID), orderpayment.ReturnedPoints(returned)).
		SetReturnedPoints(target).SetUpdatedAt(clock.At(ctx)).Save(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("recording the payment's returned points: %w", err)
	}
	if n == 0 {
		return nil, nil, nil
	}
	tx, err := loyalty.BookCardPoints(ctx, pay.CardID, loyalty.CardMove{Typ: cardtransaction.TypePOINTS_RETURNED, Points: target - returned,
		Reason: &reason, SourceID: &pay.OrderID})
	if err != nil {
		return nil, nil, err
	}
	saved, err := c.OrderPayment.Get(ctx, pay.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the payment: %w", err)
	}
	return tx, saved, nil
}
