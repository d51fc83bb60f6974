package refund

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/payment"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// Partial refunds of order payments (refunds.spent_points RETURN_POINTS
// with mode REFUND_AMOUNT or REFUND_ITEM). The orders resource has no
// refund call: an order write that leaves the order not canceled with a
// lower total_amount or fewer units on its lines is the refund
// (graph/order calls RefundOrderPayments in the write, the order's row
// locked). Each APPROVED payment remembers the order it paid (its
// total_amount and lines, order_amount and order_items) and gives back
//
//	REFUND_AMOUNT: ⌊points × (paid total − total now) / paid total⌋
//	REFUND_ITEM:   ⌊points × refunded lines' value / lines' value⌋
//
// where a line's refunded value is its units gone since the payment (by
// sku_id, else product_id, else source_id) × its unit price then. The
// share is cumulative: a write gives back what it reaches beyond the
// payment's returned_points (bookReturn's compare-and-set), so the same
// refund sent twice, or two refunds at once, return the points once; a
// total raised again returns nothing and takes nothing back. With both
// modes the larger share counts (they measure the same refund). A cancel
// then returns the remainder (REFUND_ALL, order_refunds.go). Payments
// made before order_amount was recorded are returned on cancel only.

// orderPartialReturnReason is a partial return's card transaction reason.
const orderPartialReturnReason = "Points returned from partial order refund"

// spentModes are the RETURN_POINTS modes of a definition's spent points
// refunds (nil when they are NONE).
func spentModes(d *ent.CardDefinition) map[string]bool {
	r := loyalty.CardSettingsOf(d).Refunds.SpentPoints
	if r == nil || r.Type != "REFUNDABLE" {
		return nil
	}
	out := map[string]bool{}
	for _, m := range r.Methods {
		if m.Type == "RETURN_POINTS" && m.Mode != nil {
			out[*m.Mode] = true
		}
	}
	return out
}

// RefundOrderPayments gives back the proportional points of the order's
// APPROVED payments that its write refunded in part (o as written, not
// canceled); the caller holds the order's row lock.
func RefundOrderPayments(ctx context.Context, o *ent.Order) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	pays, err := c.OrderPayment.Query().Where(orderpayment.OrderID(o.ID), orderpayment.Status(payment.PaymentApproved),
		orderpayment.RefundTransactionIDIsNil(), orderpayment.OrderAmountNotNil()).
		Order(orderpayment.ByCreatedAt(), orderpayment.ByID()).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the order's payments: %w", err)
	}
	defs := map[string]map[string]bool{}
	for _, pay := range pays {
		modes, seen := defs[pay.CardDefinitionID]
		if !seen {
			d, err := c.CardDefinition.Get(ctx, pay.CardDefinitionID)
			if err != nil && !ent.IsNotFound(err) {
				return fmt.Errorf("reading card definition: %w", err)
			}
			if d != nil {
				modes = spentModes(d)
			}
			defs[pay.CardDefinitionID] = modes
		}
		target := int64(0)
		if modes["REFUND_AMOUNT"] {
			base := *pay.OrderAmount
			target = max(target, share(pay.Points, base-o.TotalAmount, base))
		}
		if modes["REFUND_ITEM"] {
			gone, base := refundedLines(pay.OrderItems, o.Items)
			target = max(target, share(pay.Points, gone, base))
		}
		tx, saved, err := bookReturn(ctx, c, pay, pay.ReturnedPoints, target, orderPartialReturnReason)
		if err != nil {
			return err
		}
		if tx != nil {
			if err := payment.EmitOrderTransaction(ctx, saved, tx); err != nil {
				return err
			}
		}
	}
	return nil
}

// share is ⌊points × part / whole⌋ with part clamped to 0..whole (0 when
// whole is not positive), computed without overflow.
func share(points, part, whole int64) int64 {
	if whole <= 0 || part <= 0 || points <= 0 {
		return 0
	}
	part = min(part, whole)
	n := new(big.Int).Mul(big.NewInt(points), big.NewInt(part))
	return n.Quo(n, big.NewInt(whole)).Int64()
}

// refundedLines is the value of the units of the paid lines that the
// order's lines now lack (gone) and the paid lines' value (base), each
// line's units at its unit price when paid.
func refundedLines(paid, now []map[string]any) (gone, base int64) {
	left := map[string]int64{}
	for i, m := range now {
		left[lineKey(m, i)] += validationrule.JSONInt64(m["quantity"])
	}
	for i, m := range paid {
		q, price := validationrule.JSONInt64(m["quantity"]), validationrule.JSONInt64(m["price"])
		if q <= 0 || price <= 0 {
			continue
		}
		base += q * price
		k := lineKey(m, i)
		kept := min(max(left[k], 0), q)
		left[k] -= kept
		gone += (q - kept) * price
	}
	return gone, base
}

// lineKey names an order line across writes: its SKU, else its product,
// else its source_id, else its position.
func lineKey(m map[string]any, i int) string {
	for _, k := range []string{"sku_id", "product_id", "source_id"} {
		if s, ok := m[k].(string); ok && s != "" {
			return k + ":" + s
		}
	}
	return "#" + strconv.Itoa(i)
}
