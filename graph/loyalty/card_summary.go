package loyalty

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A card's summary as the v2 documents show it on a card (CardSimple):
// lifetime counters read from the card's ledger (card transactions) and its
// pending entries (points buckets), the pending balance, the nearest
// expiration and the nearest activation. Computed, not stored: one grouped
// SUM over the transactions and one over the buckets per set of cards.

// CardLifetime is CardLifetimeBucket: points counters (all ≥ 0) and pending
// counters. Balance = Total − Subtracted − Expired − Spent + Returned.
type CardLifetime struct {
	// Total is every addition (earned, added by hand, activated pending
	// points); Earned the earning rules' own, Added the manual ones.
	Total, Earned, Added int64
	// Subtracted (manual removals), Expired, Spent (rewards and orders).
	Subtracted, Expired, Spent int64
	// Returned is given back: refunded reward purchases and canceled
	// orders paid with points.
	Returned int64
	// PendingTotal is every pending entry's points, PendingActivated and
	// PendingCanceled those moved on.
	PendingTotal, PendingActivated, PendingCanceled int64
}

// CardNextMove is the nearest expiration or activation of a card: Points
// due on Date (UTC day). Type is the pending policy of an activation;
// an EVENT_BASED entry's date is when it is canceled.
type CardNextMove struct {
	Points int64
	Date   time.Time
	Type   string
}

// CardSummary is what a card's answer shows beyond its row.
type CardSummary struct {
	Lifetime       CardLifetime
	PendingPoints  int64
	NextExpiration *CardNextMove
	NextActivation *CardNextMove
}

// CardSummaries computes the summaries of cards, by card id.
func CardSummaries(ctx context.Context, cards []*ent.Card) (map[string]*CardSummary, error) {
	out := make(map[string]*CardSummary, len(cards))
	if len(cards) == 0 {
		return out, nil
	}
	ids := make([]string, len(cards))
	for i, crd := range cards {
		ids[i] = crd.ID
		out[crd.ID] = &CardSummary{}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := addLedgerCounters(ctx, c, ids, out); err != nil {
		return nil, err
	}
	if err := addBucketCounters(ctx, c, ids, out); err != nil {
		return nil, err
	}
	return out, nil
}

// addLedgerCounters sums the cards' transactions by kind.
func addLedgerCounters(ctx context.Context, c *ent.Client, ids []string, out map[string]*CardSummary) error {
	var rows []struct {
		CardID string  `json:"card_id"`
		Type   string  `json:"type"`
		Rule   *string `json:"earning_rule_id"`
		Reason *string `json:"reason"`
		Sum    int64   `json:"sum"`
	}
	err := c.CardTransaction.Query().Where(cardtransaction.CardIDIn(ids...)).
		GroupBy(cardtransaction.FieldCardID, cardtransaction.FieldType, cardtransaction.FieldEarningRuleID, cardtransaction.FieldReason).
		Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("summing card transactions: %w", err)
	}
	for _, r := range rows {
		l := &out[r.CardID].Lifetime
		switch cardtransaction.Type(r.Type) {
		case cardtransaction.TypePOINTS_ADDITION:
			l.Total += r.Sum
			switch {
			case r.Rule != nil && r.Reason != nil && *r.Reason == pendingActivatedReason:
			case r.Rule != nil:
				l.Earned += r.Sum
			default:
				l.Added += r.Sum
			}
		case cardtransaction.TypePOINTS_REMOVAL:
			l.Subtracted -= r.Sum
		case cardtransaction.TypePOINTS_EXPIRED:
			l.Expired -= r.Sum
		case cardtransaction.TypePOINTS_SPENT_ON_REWARD, cardtransaction.TypePOINTS_SPENT_ON_ORDER:
			l.Spent -= r.Sum
		case cardtransaction.TypePOINTS_REFUNDED, cardtransaction.TypePOINTS_RETURNED:
			l.Returned += r.Sum
		}
	}
	return nil
}

// addBucketCounters reads the cards' pending entries and dated buckets.
func addBucketCounters(ctx context.Context, c *ent.Client, ids []string, out map[string]*CardSummary) error {
	var rows []struct {
		CardID string `json:"card_id"`
		Status string `json:"status"`
		Sum    int64  `json:"sum"`
	}
	err := c.PointsBucket.Query().Where(pointsbucket.CardIDIn(ids...), pointsbucket.StatusIn(pointsbucket.StatusPENDING,
		pointsbucket.StatusACTIVATED, pointsbucket.StatusCANCELED)).
		GroupBy(pointsbucket.FieldCardID, pointsbucket.FieldStatus).
		Aggregate(ent.As(ent.Sum(pointsbucket.FieldPoints), "sum")).Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("summing pending points: %w", err)
	}
	for _, r := range rows {
		s := out[r.CardID]
		s.Lifetime.PendingTotal += r.Sum
		switch pointsbucket.Status(r.Status) {
		case pointsbucket.StatusPENDING:
			s.PendingPoints += r.Sum
		case pointsbucket.StatusACTIVATED:
			s.Lifetime.PendingActivated += r.Sum
		case pointsbucket.StatusCANCELED:
			s.Lifetime.PendingCanceled += r.Sum
		}
	}
	// The nearest day of each card: the buckets are few per card (one per
	// credit left unspent), read in day order.
	expiring, err := c.PointsBucket.Query().Where(pointsbucket.CardIDIn(ids...), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE),
		pointsbucket.ExpiresAtNotNil(), pointsbucket.PointsGT(0)).Order(pointsbucket.ByExpiresAt(), pointsbucket.ByID()).All(ctx)
	if err != nil {
		return fmt.Errorf("reading expiring points: %w", err)
	}
	for _, b := range expiring {
		s := out[*b.CardID]
		s.NextExpiration = nextMove(s.NextExpiration, b.Points, *b.ExpiresAt, "")
	}
	pending, err := c.PointsBucket.Query().Where(pointsbucket.CardIDIn(ids...), pointsbucket.StatusEQ(pointsbucket.StatusPENDING),
		pointsbucket.ActivatesAtNotNil()).Order(pointsbucket.ByActivatesAt(), pointsbucket.ByID()).All(ctx)
	if err != nil {
		return fmt.Errorf("reading pending points: %w", err)
	}
	for _, b := range pending {
		s := out[*b.CardID]
		typ, _ := b.Details["type"].(string)
		if typ == "" {
			typ = pendingPeriodBased
		}
		s.NextActivation = nextMove(s.NextActivation, b.Points, *b.ActivatesAt, typ)
	}
	return nil
}

// nextMove adds a bucket due on day to the nearest move so far (buckets come
// in day order: the first day wins, later buckets of that day add up).
func nextMove(m *CardNextMove, pts int64, day time.Time, typ string) *CardNextMove {
	day = day.UTC()
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	if m == nil {
		return &CardNextMove{Points: pts, Date: day, Type: typ}
	}
	if m.Date.Equal(day) && m.Type == typ {
		m.Points += pts
	}
	return m
}

// MemberCardOf is the member's card of a card definition (nil: none).
func MemberCardOf(ctx context.Context, c *ent.Client, memberID, defID string) (*ent.Card, error) {
	crd, err := c.Card.Query().Where(card.MemberID(memberID), card.CardDefinitionID(defID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading member card: %w", err)
	}
	return crd, nil
}
