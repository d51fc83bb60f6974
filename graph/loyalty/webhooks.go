package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// emitCardPoints: voucher.loyalty_card.points_added when points were added
// to a loyalty card (the points endpoint or an earning rule), ordered per
// card. data: the card after the move, the transaction, the card's member
// (with its cards) and customer (null for an unassigned card), and a
// balance object like the real service's (points added, new balance).
func emitCardPoints(ctx context.Context, crd *ent.Card, tx *ent.CardTransaction) error {
	if tx.Amount <= 0 {
		return nil
	}
	if tx.Edges.Card == nil {
		tx.Edges.Card = crd // the ids the v2 transaction shows (LoadTransactionCards)
	}
	return webhook.EmitAll(ctx, webhook.Event{Name: webhook.EventVoucherLoyaltyCardPointsAdded, ObjectType: "card", ObjectID: crd.ID,
		Load: func(ctx context.Context) (map[string]any, error) {
			data := map[string]any{"card": crd, "transaction": tx, "member": nil, "customer": nil,
				"balance": map[string]any{"points": tx.Amount, "balance": tx.Balance, "type": "loyalty_card",
					"object": "balance", "related_object": map[string]any{"id": crd.ID, "type": "card"}}}
			if crd.MemberID == nil {
				return data, nil
			}
			c, err := store.Client(ctx)
			if err != nil {
				return nil, err
			}
			m, err := c.LoyaltyMember.Query().Where(loyaltymember.ID(*crd.MemberID)).
				WithCards().Only(ctx)
			if err != nil {
				return nil, fmt.Errorf("reading member: %w", err)
			}
			cust, err := c.Customer.Get(ctx, m.CustomerID)
			if err != nil && !ent.IsNotFound(err) {
				return nil, fmt.Errorf("reading customer: %w", err)
			}
			data["member"], data["customer"] = m, cust
			return data, nil
		}})
}
