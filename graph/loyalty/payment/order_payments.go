package payment

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	entorder "github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/validationrule"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Paying orders with points (POST/GET …/members/{memberId}/orders/payments).
// A payment spends a member card's points on part of an order, at the
// card definition's exchange ratio (pay_with_points.go). The order row is
// locked first (FOR UPDATE on PostgreSQL; SQLite writers are serial), so
// the payments of one order queue and each sees what the earlier ones
// paid: the APPROVED amounts never sum above the order's total_amount —
// paying a paid order again, even concurrently from another server
// process, deducts nothing (a REJECTED transaction,
// PAYMENT_EXCEEDS_ORDER_TOTAL_AMOUNT). The points leave through
// bookCardPoints (the card row lock; never below zero) as one
// POINTS_SPENT_ON_ORDER card transaction. The documents describe an
// asynchronous PENDING transaction (202); it is processed before the
// answer here (202, APPROVED or REJECTED). A refusal (404, 423, 400)
// writes nothing.

// orderPaymentReason is the transactions' details.reason.
const orderPaymentReason = "Points spent on order payment"

// Order transaction statuses and the rejection of a paid order.
const (
	PaymentApproved  = "APPROVED"
	paymentRejected  = "REJECTED"
	paymentSimulated = "SIMULATED"
	rejectOrderPaid  = "PAYMENT_EXCEEDS_ORDER_TOTAL_AMOUNT"
)

// PayOrderWithPoints pays (part of) an order with a member card's points,
// or simulates it (mode DRY_RUN: nothing written).
func PayOrderWithPoints(ctx context.Context, programID, memberID string, in PayOrderInput) (*OrderPaymentResult, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	crd, err := payingCard(ctx, programID, memberID, *in.CardID)
	if err != nil {
		return nil, err
	}
	def, err := loyaltybase.CardDefinition(ctx, deref(crd.CardDefinitionID))
	if ent.IsNotFound(err) || crd.CardDefinitionID == nil {
		return nil, loyaltybase.Locked423("pay_with_points_not_enabled", "Pay with points is not enabled",
			"Card definition does not have pay with points enabled")
	}
	if err != nil {
		return nil, err
	}
	o, err := lockedOrder(ctx, in.Order)
	if err != nil {
		return nil, err
	}
	ratio, err := exchangeRatio(def, o)
	if err != nil {
		return nil, err
	}
	if crd, err = loyalty.LockedCard(ctx, crd.ID); err != nil {
		return nil, err
	}
	if crd.Balance <= 0 {
		return nil, loyaltybase.Locked423("zero_card_balance", "Card balance is zero", "Operation requires a positive card balance")
	}
	paid, err := orderPaidAmount(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	amount, points := paymentSplit(crd.Balance, o.TotalAmount-paid, ratio, in.PaymentLimit)
	pay := &ent.OrderPayment{ProgramID: programID, MemberID: memberID, CardID: crd.ID, CardDefinitionID: def.ID,
		OrderID: o.ID, Amount: amount, Points: points, ExchangeRatio: ratio, Limits: in.limits(), Status: PaymentApproved,
		OrderAmount: &o.TotalAmount, OrderItems: paidLines(o)} // the base of partial refunds (order_partial_refunds.go)
	if amount <= 0 {
		reason := rejectOrderPaid
		if o.TotalAmount-paid > 0 {
			reason = "NOT_ENOUGH_BALANCE" // the points pay less than one minor unit
		}
		pay.Status, pay.RejectionReason = paymentRejected, &reason
	} else if over, err := loyalty.CheckSpendingLimits(ctx, def, crd.ID, points); err != nil {
		return nil, err
	} else if over != nil { // spending_limits.go, under the card lock
		pay.Status, pay.RejectionReason, pay.RejectionDetails = paymentRejected, &over.Reason, over.Details
	}
	if in.Mode != nil && *in.Mode == modeDryRun {
		pay.Status = paymentSimulated
		pay.CreatedAt = clock.At(ctx)
		return &OrderPaymentResult{DryRun: true, Transaction: pay}, nil
	}
	return recordOrderPayment(ctx, pay)
}

// payingCard is the member's card a payment spends from: the program and
// member must exist (404) and be ACTIVE (423), the card must be the
// member's (404).
func payingCard(ctx context.Context, programID, memberID, cardID string) (*ent.Card, error) {
	crd, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, err
	}
	if p.Status != loyaltyprogram.StatusACTIVE {
		return nil, loyaltybase.Locked423("program_not_active", "Program not active", fmt.Sprintf("Program %s is %s", programID, p.Status))
	}
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	if m.Status != loyaltymember.StatusACTIVE {
		return nil, loyaltybase.Locked423("member_not_active", "Member not active", fmt.Sprintf("Member %s is %s", memberID, m.Status))
	}
	return crd, nil
}

// lockedOrder finds the order by id or source_id (404 order) and locks its
// row on PostgreSQL: the payments of one order run one after another.
func lockedOrder(ctx context.Context, ref *OrderPaymentOrder) (*ent.Order, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Order.Query()
	name := deref(ref.ID)
	if !emptyRef(ref.ID) {
		q = q.Where(entorder.ID(*ref.ID))
	} else {
		name = *ref.SourceID
		q = q.Where(entorder.SourceID(*ref.SourceID))
	}
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	o, err := q.Only(ctx)
	if err := loyaltybase.NotFound(err, "order", name); err != nil {
		return nil, err
	}
	return o, nil
}

// orderPaidAmount sums the order's APPROVED payments.
func orderPaidAmount(ctx context.Context, orderID string) (int64, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	var sums []struct {
		Sum int64 `json:"sum"`
	}
	err = c.OrderPayment.Query().Where(orderpayment.OrderID(orderID), orderpayment.Status(PaymentApproved)).
		Aggregate(ent.As(ent.Sum(orderpayment.FieldAmount), "sum")).Scan(ctx, &sums)
	if err != nil {
		return 0, fmt.Errorf("summing order payments: %w", err)
	}
	if len(sums) == 0 {
		return 0, nil
	}
	return sums[0].Sum, nil
}

// recordOrderPayment books an approved payment's points and stores the
// order transaction (a rejected one moves nothing), with one webhook event
// for the card transaction.
func recordOrderPayment(ctx context.Context, pay *ent.OrderPayment) (*OrderPaymentResult, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	var tx *ent.CardTransaction
	if pay.Status == PaymentApproved {
		reason := orderPaymentReason
		tx, err = loyalty.BookCardPoints(ctx, pay.CardID, loyalty.CardMove{Typ: cardtransaction.TypePOINTS_SPENT_ON_ORDER,
			Points: -pay.Points, Reason: &reason, SourceID: &pay.OrderID})
		if err != nil {
			return nil, err
		}
		pay.CardTransactionID = &tx.ID
	}
	saved, err := c.OrderPayment.Create().SetProgramID(pay.ProgramID).SetMemberID(pay.MemberID).SetCardID(pay.CardID).
		SetCardDefinitionID(pay.CardDefinitionID).SetNillableCardTransactionID(pay.CardTransactionID).
		SetOrderID(pay.OrderID).SetStatus(pay.Status).SetAmount(pay.Amount).SetPoints(pay.Points).
		SetExchangeRatio(pay.ExchangeRatio).SetLimits(pay.Limits).SetNillableRejectionReason(pay.RejectionReason).
		SetRejectionDetails(pay.RejectionDetails).SetNillableOrderAmount(pay.OrderAmount).SetOrderItems(pay.OrderItems).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("recording order transaction: %w", err)
	}
	if tx != nil {
		if err := EmitOrderTransaction(ctx, saved, tx); err != nil {
			return nil, err
		}
	}
	return &OrderPaymentResult{Transaction: saved}, nil
}

// EmitOrderTransaction writes the webhook event of a card transaction an
// order payment booked (its spending or its return).
func EmitOrderTransaction(ctx context.Context, pay *ent.OrderPayment, tx *ent.CardTransaction) error {
	data := map[string]any{"card_id": pay.CardID, "member_id": pay.MemberID, "order_transaction": OrderPaymentJSON(pay),
		"transaction": map[string]any{"id": tx.ID, "card_id": tx.CardID, "type": string(tx.Type), "amount": tx.Amount,
			"balance": tx.Balance, "reason": tx.Reason, "source_id": tx.SourceID, "object": "card_transaction"}}
	return webhook.EmitAll(ctx, webhook.Event{Name: loyaltybase.EventCardTransaction, ObjectType: "card", ObjectID: pay.CardID, Data: data})
}

// OrderPayments pages through a member's order transactions.
// filter (optional) keeps the rows its conditions match.
func OrderPayments(ctx context.Context, programID, memberID string, p loyaltybase.PageInput, filter *OrderPaymentFilter) (*OrderPaymentPage, error) {
	scope := []predicate.OrderPayment{orderpayment.MemberID(memberID)}
	if where, err := filter.predicates(ctx); err != nil {
		return nil, err
	} else if where != nil {
		scope = append(scope, where)
	}
	rows, more, err := loyalty.MemberRows(ctx, programID, memberID, p, loyalty.MemberKeyset[*ent.OrderPayment, predicate.OrderPayment, orderpayment.OrderOption, *ent.OrderPaymentQuery]{
		Query: func(c *ent.Client) *ent.OrderPaymentQuery { return c.OrderPayment.Query() },
		ByID:  orderpayment.ID, Scope: scope,
		CreatedAt: func(r *ent.OrderPayment) time.Time { return r.CreatedAt }})
	if err != nil {
		return nil, err
	}
	return &OrderPaymentPage{Data: rows, HasMore: more}, nil
}

// OrderPaymentJSON is an order transaction in the interface's shape
// (object order_transaction); a simulated one has no id, no
// card_transaction_id and no updated_at.
func OrderPaymentJSON(p *ent.OrderPayment) map[string]any {
	var rejection any
	if p.RejectionReason != nil {
		r := map[string]any{"reason": *p.RejectionReason}
		if p.RejectionDetails != nil {
			r["details"] = p.RejectionDetails
		}
		rejection = r
	}
	payment := map[string]any{"amount": p.Amount, "points_spent": p.Points, "exchange_ratio": p.ExchangeRatio}
	limits := p.Limits
	if limits == nil {
		limits = map[string]any{}
	}
	out := map[string]any{"program_id": p.ProgramID, "member_id": p.MemberID, "card_id": p.CardID,
		"card_definition_id": p.CardDefinitionID, "card_transaction_id": p.CardTransactionID, "order_id": p.OrderID,
		"status": p.Status, "type": "PAY_WITH_POINTS",
		"details":    map[string]any{"reason": orderPaymentReason, "rejection": rejection, "metadata": limits, "payment": payment},
		"updated_at": nil, "object": "order_transaction"}
	if p.Status != paymentSimulated {
		out["id"], out["created_at"] = p.ID, p.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z")
		if p.UpdatedAt != nil {
			out["updated_at"] = p.UpdatedAt.UTC().Format("2006-01-02T15:04:05.000Z")
		}
	}
	return out
}

// deref is *s, "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// paidLines are the order's lines as a payment remembers them.
func paidLines(o *ent.Order) []map[string]any {
	out := make([]map[string]any, 0, len(o.Items))
	for _, m := range o.Items {
		q, price := validationrule.JSONInt64(m["quantity"]), validationrule.JSONInt64(m["price"])
		if price <= 0 && q > 0 {
			price = validationrule.JSONInt64(m["amount"]) / q
		}
		line := map[string]any{"quantity": q, "price": price}
		for _, k := range []string{"sku_id", "product_id", "source_id"} {
			if s, ok := m[k].(string); ok && s != "" {
				line[k] = s
			}
		}
		out = append(out, line)
	}
	return out
}
