package refund

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/points"
)

// Earned points refunds (refunds.earned_points {type: REFUNDABLE,
// methods}). When an order is canceled (the orders resource's refund;
// graph/order calls RevokeOrderEarnings in the write, the order's row
// locked), what the order earned on the customer's cards whose definition
// has them is taken back:
//   - REVOKE_FROM_PENDING: the card's PENDING entries earned by the order
//     are canceled (each through the guarded PENDING→CANCELED move);
//   - REVOKE_FROM_BALANCE: the points the order's earnings booked (their
//     card transactions name the order as source_id), less what was
//     revoked before, leave as one POINTS_REMOVAL (reason
//     orderRevokeReason) — REVOKE_TO_ZERO at most the balance,
//     REVOKE_BELOW_ZERO all of it when balance_settings.allow_negative
//     (else as REVOKE_TO_ZERO).
//
// What was revoked before is the sum of the card's earlier revocations for
// the order, read under the order's row lock and the card's, so a
// canceled order that is paid and canceled again takes back nothing more.
// Partial refunds revoke no earned points (the order as earned is not
// remembered).

// orderRevokeReason is the reason of an order's revoked earned points.
const orderRevokeReason = "Earned points revoked: order refunded"

// RevokeOrderEarnings takes back what the canceled order o earned on its
// customer's cards, by each card definition's refunds.earned_points.
func RevokeOrderEarnings(ctx context.Context, o *ent.Order) error {
	if o.CustomerID == nil {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cards, err := c.Card.Query().Where(card.HasMemberWith(loyaltymember.CustomerID(*o.CustomerID))).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the customer's cards: %w", err)
	}
	for _, crd := range cards {
		d, err := loyalty.CardDefinitionOf(ctx, crd)
		if err != nil {
			return err
		}
		if d == nil {
			continue
		}
		r := loyalty.CardSettingsOf(d).Refunds.EarnedPoints
		if r == nil || r.Type != "REFUNDABLE" {
			continue
		}
		for _, m := range r.Methods {
			switch m.Type {
			case "REVOKE_FROM_PENDING":
				err = revokePending(ctx, c, crd, o.ID)
			case "REVOKE_FROM_BALANCE":
				err = revokeBalance(ctx, c, crd, o.ID, m.Mode != nil && *m.Mode == "REVOKE_BELOW_ZERO")
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// revokePending cancels the card's PENDING entries the order earned.
func revokePending(ctx context.Context, c *ent.Client, crd *ent.Card, orderID string) error {
	ids, err := c.PointsBucket.Query().Where(pointsbucket.CardID(crd.ID), pointsbucket.StatusEQ(pointsbucket.StatusPENDING),
		func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(pointsbucket.FieldDetails, orderID, sqljson.Path("source_id")))
		}).IDs(ctx)
	if err != nil {
		return fmt.Errorf("reading the order's pending points: %w", err)
	}
	for _, id := range ids {
		if _, err := points.Move(ctx, c, id, pointsbucket.StatusPENDING, pointsbucket.StatusCANCELED); err != nil {
			return err
		}
	}
	return nil
}

// revokeBalance takes the order's earned points not yet revoked off the
// card (below zero only when allowed).
func revokeBalance(ctx context.Context, c *ent.Client, crd *ent.Card, orderID string, belowZero bool) error {
	locked, err := loyalty.LockedCard(ctx, crd.ID) // order_payments.go: the card lock bookCardPoints takes
	if err != nil {
		return err
	}
	earned, err := sumCardTx(ctx, c, crd.ID, orderID, cardtransaction.TypeEQ(cardtransaction.TypePOINTS_ADDITION),
		cardtransaction.EarningRuleIDNotNil())
	if err != nil {
		return err
	}
	revoked, err := sumCardTx(ctx, c, crd.ID, orderID, cardtransaction.TypeEQ(cardtransaction.TypePOINTS_REMOVAL),
		cardtransaction.Reason(orderRevokeReason))
	if err != nil {
		return err
	}
	take := earned + revoked // revoked is negative
	if belowZero {
		if belowZero, err = loyalty.AllowsNegative(ctx, locked); err != nil {
			return err
		}
	}
	if !belowZero {
		take = min(take, locked.Balance)
	}
	if take <= 0 {
		return nil
	}
	reason := orderRevokeReason
	_, err = loyalty.BookCardPoints(ctx, crd.ID, loyalty.CardMove{Typ: cardtransaction.TypePOINTS_REMOVAL, Points: -take,
		Reason: &reason, SourceID: &orderID})
	return err
}

// sumCardTx sums the amounts of the card's transactions for the order
// (source_id) that match where.
func sumCardTx(ctx context.Context, c *ent.Client, cardID, orderID string, where ...predicate.CardTransaction) (int64, error) {
	var sums []struct {
		Sum int64 `json:"sum"`
	}
	err := c.CardTransaction.Query().Where(append(where, cardtransaction.CardID(cardID), cardtransaction.SourceID(orderID))...).
		Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
	if err != nil {
		return 0, fmt.Errorf("summing the order's card transactions: %w", err)
	}
	if len(sums) == 0 {
		return 0, nil
	}
	return sums[0].Sum, nil
}
