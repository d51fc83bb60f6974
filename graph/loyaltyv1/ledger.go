package loyaltyv1

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/points"
	"github.com/promoengine/promoengine/graph/webhook"
)

// CardBalance is the outcome of a points move on a card (the balance
// object of POST …/members/{memberId}/balance).
type CardBalance struct {
	// Points is the signed change.
	Points int64 `json:"points"`
	// Total is the card's points after the change, Balance its spendable
	// points.
	Total         int64         `json:"total"`
	Balance       int64         `json:"balance"`
	Type          string        `json:"type"`
	Object        string        `json:"object"`
	RelatedObject RelatedObject `json:"related_object"`
	OperationType string        `json:"operation_type"`
}

// RelatedObject names the card a balance belongs to.
type RelatedObject struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// move is one booking on a card that the caller holds locked.
type move struct {
	typ                  vouchertransaction.Type
	points               int64
	sourceID, reason     *string
	details              map[string]any
	relatedTransactionID *string
	// source is the transaction's channel ("" means API); operation the
	// balance's operation_type ("" means MANUAL).
	source, operation string
	// expiry dates the bucket a credit makes (nil: the program's rules).
	expiry *points.Expiry
	// pending is the change of the card's pending points that comes with
	// the move (an activation takes its points out of pending).
	pending int64
	// tierRule marks the points of a tier-event rule: they fire no tier
	// rules (tier_events.go).
	tierRule bool
}

// book applies m to the locked card v: points and balance change together
// (a removal also counts in subtracted_points), the balance never goes
// below zero nor above loyalty.MaxPoints, and the transaction records the
// balance after the move. v's loyalty card is updated in place.
func book(ctx context.Context, c *ent.Client, v *ent.Voucher, m move) (*ent.VoucherTransaction, *CardBalance, error) {
	var before *ent.LoyaltyTier
	if !m.tierRule {
		var err error
		if before, err = cardTier(ctx, v); err != nil {
			return nil, nil, err
		}
	}
	card := jsonfield.LoyaltyCard{}
	if v.LoyaltyCard != nil {
		card = *v.LoyaltyCard
	}
	if card.Balance+m.points < 0 {
		return nil, nil, apperr.New(http.StatusBadRequest, "invalid_amount", "Invalid amount",
			fmt.Sprintf("Cannot remove %d points from card %s: its balance is %d", -m.points, v.Code, card.Balance))
	}
	if card.Balance+m.points > loyalty.MaxPoints || card.Points+m.points > loyalty.MaxPoints {
		return nil, nil, apperr.InvalidPayload("Property .points would raise the points of card %s above %d", v.Code, int64(loyalty.MaxPoints))
	}
	card.Points += m.points
	card.Balance += m.points
	if m.typ == vouchertransaction.TypePOINTS_REMOVAL {
		sub := -m.points
		if card.SubtractedPoints != nil {
			sub += *card.SubtractedPoints
		}
		card.SubtractedPoints = &sub
	}
	if err := points.VoucherMoved(ctx, c, v, m.typ, m.points, m.expiry, clock.At(ctx)); err != nil {
		return nil, nil, err
	}
	if err := refreshCard(ctx, c, v, &card, m.pending); err != nil {
		return nil, nil, err
	}
	// Update, not UpdateOne: no read-back of the row (v is updated below).
	if err := c.Voucher.Update().Where(voucher.ID(v.ID)).SetLoyaltyCard(&card).Exec(ctx); err != nil {
		return nil, nil, fmt.Errorf("updating card points: %w", err)
	}
	v.LoyaltyCard = &card
	bal := &CardBalance{Points: m.points, Total: card.Points, Balance: card.Balance, Type: "loyalty_card", Object: "balance",
		RelatedObject: RelatedObject{Type: "voucher", ID: v.ID}, OperationType: "MANUAL"}
	if m.operation != "" {
		bal.OperationType = m.operation
	}
	src := viewer.TransactionSourceOf(ctx)
	if m.source != "" {
		src = m.source
	}
	details := map[string]any{}
	for k, val := range m.details {
		details[k] = val
	}
	details["balance"] = map[string]any{"type": bal.Type, "total": bal.Total, "object": "balance", "points": bal.Points,
		"balance": bal.Balance, "operation_type": bal.OperationType, "related_object": map[string]any{"id": v.ID, "type": "voucher"}}
	tx, err := c.VoucherTransaction.Create().SetVoucherID(v.ID).SetNillableCampaignID(v.CampaignID).SetType(m.typ).
		SetAmount(m.points).SetBalance(card.Balance).SetNillableSourceID(m.sourceID).SetNillableReason(m.reason).
		SetDetails(details).SetNillableRelatedTransactionID(m.relatedTransactionID).SetSource(src).Save(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("recording points transaction: %w", err)
	}
	if !m.tierRule {
		if err := afterTierMove(ctx, c, v, before); err != nil {
			return nil, nil, err
		}
	}
	if m.points > 0 {
		// The event the v2 cards write too (graph/loyalty/webhooks.go).
		if err := webhook.Emit(ctx, webhook.EventVoucherLoyaltyCardPointsAdded, "voucher", v.ID,
			map[string]any{"voucher": v, "transaction": tx, "balance": bal}); err != nil {
			return nil, nil, err
		}
	}
	return tx, bal, nil
}

// requireHolder refuses a card that nobody holds yet: points move only on
// members' cards.
func requireHolder(v *ent.Voucher) error {
	if v.HolderID == nil {
		return apperr.New(http.StatusBadRequest, "loyalty_card_not_published", "Loyalty card not published",
			fmt.Sprintf("Loyalty card %s has no holder: add it to a member first", v.Code))
	}
	return nil
}

// refreshCard brings the card's bucket-derived numbers up to date: the
// next expiry (day and points) and, by pending, its pending points.
func refreshCard(ctx context.Context, c *ent.Client, v *ent.Voucher, card *jsonfield.LoyaltyCard, pending int64) error {
	d, n, err := points.NextExpiry(ctx, c, points.VoucherCard(v))
	if err != nil {
		return err
	}
	card.NextExpirationDate, card.NextExpirationPoints = d, n
	if pending != 0 {
		p := pending
		if card.PendingPoints != nil {
			p += *card.PendingPoints
		}
		card.PendingPoints = &p
	}
	return nil
}
