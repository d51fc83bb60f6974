package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The v2 documents' view of a card transaction (loyalties-v2.json,
// CardTransaction): its type in the documents' words and the card it
// belongs to. The stored type (POINTS_ADDITION, POINTS_REMOVAL, …) is the
// ledger's, shared by the GraphQL API; the REST v2 edge maps it.

// pendingActivatedReason is the reason activateCardPending books
// (card_pending.go) on the points of an activated pending entry.
const pendingActivatedReason = "Pending points activated"

// CardTransactionType names a card transaction as the v2 documents do:
// an addition is PENDING_POINTS_ACTIVATED (a pending entry came due),
// POINTS_EARNED (an earning rule awarded it) or ADMIN_CREDIT (a manual
// adjustment); a removal is ADMIN_DEBIT; the other types keep their names
// (POINTS_SPENT_ON_REWARD, POINTS_REFUNDED, POINTS_EXPIRED,
// POINTS_SPENT_ON_ORDER).
func CardTransactionType(t *ent.CardTransaction) string {
	switch t.Type {
	case "POINTS_ADDITION":
		switch {
		case t.EarningRuleID != nil && t.Reason != nil && *t.Reason == pendingActivatedReason:
			return "PENDING_POINTS_ACTIVATED"
		case t.EarningRuleID != nil:
			return "POINTS_EARNED"
		}
		return "ADMIN_CREDIT"
	case "POINTS_REMOVAL":
		return "ADMIN_DEBIT"
	}
	return string(t.Type)
}

// LoadTransactionCards loads the card of each transaction into its
// Edges.Card (one query), for the program, member and card definition the
// v2 documents show on a transaction.
func LoadTransactionCards(ctx context.Context, txs ...*ent.CardTransaction) error {
	ids := make([]string, 0, len(txs))
	for _, t := range txs {
		if t != nil && t.Edges.Card == nil {
			ids = append(ids, t.CardID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cards, err := c.Card.Query().Where(card.IDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("loading the cards of transactions: %w", err)
	}
	byID := make(map[string]*ent.Card, len(cards))
	for _, crd := range cards {
		byID[crd.ID] = crd
	}
	for _, t := range txs {
		if t != nil && t.Edges.Card == nil {
			t.Edges.Card = byID[t.CardID]
		}
	}
	return nil
}
