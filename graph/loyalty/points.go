package loyalty

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// AdjustCardPoints serves the points endpoint: it checks the request and
// that the card is the member's, then moves the points (moveCardPoints).
func AdjustCardPoints(ctx context.Context, programID, memberID, cardID string, in loyaltybase.AdjustPointsInput) (*loyaltybase.PointsAdjustment, error) {
	if in.Points < math.MinInt32 || in.Points > math.MaxInt32 {
		return nil, apperr.InvalidPayload("Property .points must be between %d and %d", math.MinInt32, math.MaxInt32)
	}
	if in.Reason != nil && len([]rune(*in.Reason)) > 255 {
		return nil, apperr.InvalidPayload("Property .reason must be at most 255 characters long")
	}
	if _, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID); err != nil {
		return nil, err
	}
	if in.Points == 0 {
		return &loyaltybase.PointsAdjustment{Status: "NO_CHANGE", Message: "Provided amount is zero, transaction was not created"}, nil
	}
	tx, err := moveCardPoints(ctx, cardID, in.Points, in.Reason, in.SourceID, nil)
	if err != nil {
		return nil, err
	}
	msg := "Points addition transaction created"
	if in.Points < 0 {
		msg = "Points subtraction transaction created"
	}
	return &loyaltybase.PointsAdjustment{Status: "TRANSACTION_CREATED", Message: msg, Transaction: tx}, nil
}

// moveCardPoints adds (points > 0) or removes (points < 0) points on a card
// of the caller's project and records the move as a card transaction. The
// card row is locked (FOR UPDATE on PostgreSQL; SQLite write transactions
// are serial) so the new balance is computed from the latest one; the
// balance and the transaction are written together, so the balance always
// equals the sum of the card's transactions and never goes negative. Both
// the points endpoint and loyalty earning use it.
func moveCardPoints(ctx context.Context, cardID string, points int64, reason, sourceID, earningRuleID *string) (*ent.CardTransaction, error) {
	return BookCardPoints(ctx, cardID, CardMove{Points: points, Reason: reason, SourceID: sourceID, earningRuleID: earningRuleID})
}

// CardMove is one booking on a card: signed points, and the transaction
// type (default POINTS_ADDITION or POINTS_REMOVAL by the sign).
type CardMove struct {
	Typ                             cardtransaction.Type
	Points                          int64
	Reason, SourceID, earningRuleID *string
	// expiration dates the points a credit adds (nil: they never expire).
	expiration *jsonfield.PointsExpiration
}

// TrackTiers records the tier transactions a card booking causes: the
// member's tiers of the card's definition are computed again after every
// booking (graph/loyalty/tier's TrackTiers, registered in graph/wiring.go;
// a booking fails while it is unset).
var TrackTiers func(ctx context.Context, crd *ent.Card, tx *ent.CardTransaction) error

// BookCardPoints is the one locked points move of every v2 card booking
// (the points endpoint, earning, reward purchases and refunds, the daily
// expiry); see moveCardPoints. Beside the balance it moves the card's
// points buckets (graph/points, card_buckets.go).
func BookCardPoints(ctx context.Context, cardID string, m CardMove) (*ent.CardTransaction, error) {
	points, reason, sourceID, earningRuleID := m.Points, m.Reason, m.SourceID, m.earningRuleID
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Card.Query().Where(card.ID(cardID))
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	crd, err := q.Only(ctx)
	if err := loyaltybase.NotFound(err, "card", cardID); err != nil {
		return nil, err
	}
	typ := cardtransaction.TypePOINTS_ADDITION
	if points < 0 {
		typ = cardtransaction.TypePOINTS_REMOVAL
	}
	if m.Typ != "" {
		typ = m.Typ
	}
	if earningRuleID != nil && typ == cardtransaction.TypePOINTS_ADDITION && points > 0 {
		// An earning: capped by the definition's earning limits (earning_limits.go).
		if points, err = earningAllowance(ctx, crd, points); err != nil || points == 0 {
			return nil, err
		}
		m.Points = points
	}
	balance := crd.Balance + points
	if balance < 0 && points < 0 {
		negative := false
		if typ == cardtransaction.TypePOINTS_REMOVAL { // an admin debit: balance_settings.allow_negative
			if negative, err = AllowsNegative(ctx, crd); err != nil {
				return nil, err
			}
		}
		if !negative {
			return nil, apperr.New(http.StatusBadRequest, "insufficient_points", "Not enough points",
				fmt.Sprintf("Card %s has %d points; cannot remove %d", cardID, crd.Balance, -points))
		}
	}
	if crd, err = crd.Update().SetBalance(balance).Save(ctx); err != nil {
		return nil, fmt.Errorf("updating card balance: %w", err)
	}
	if err := moveBuckets(ctx, c, crd, m, clock.At(ctx)); err != nil { // the shared bucket store (card_buckets.go)
		return nil, err
	}
	tx, err := c.CardTransaction.Create().SetCardID(cardID).SetType(typ).SetAmount(points).
		SetBalance(balance).SetNillableReason(reason).SetNillableSourceID(sourceID).
		SetNillableEarningRuleID(earningRuleID).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("recording card transaction: %w", err)
	}
	if TrackTiers == nil {
		return nil, errors.New("booking card points: loyalty.TrackTiers is not registered (graph/wiring.go)")
	}
	if err := TrackTiers(ctx, crd, tx); err != nil { // tier transactions (graph/loyalty/tier)
		return nil, err
	}
	return tx, emitCardPoints(ctx, crd, tx) // voucher.loyalty_card.points_added when points > 0
}
