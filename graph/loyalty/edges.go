package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// MemberCards is LoyaltyMember.cards: the member's cards, oldest first.
func MemberCards(ctx context.Context, obj *ent.LoyaltyMember) ([]*ent.Card, error) {
	if page.EagerLoaded(ctx, obj.NamedCards) {
		return obj.Cards(ctx)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cards, err := c.Card.Query().Where(card.MemberID(obj.ID)).Order(ent.Asc(card.FieldCreatedAt), ent.Asc(card.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the member's cards: %w", err)
	}
	return cards, nil
}
