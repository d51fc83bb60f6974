package loyalty

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/graph/points"
)

// expiredReason is the reason of the transaction an expiry books.
const expiredReason = "Points expired"

// ExpireCardBucket is the daily points job's step for a v2 card's ACTIVE
// bucket past its day (b.CardID set), in the caller's transaction under
// the bucket's project: the card is locked, the bucket moves to EXPIRED
// with one guarded UPDATE (false when another worker did it), and what is
// left in it (at most the balance) leaves the balance as a POINTS_EXPIRED
// card transaction. A card deleted since lets the bucket expire with
// nothing booked.
func ExpireCardBucket(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (bool, error) {
	_, ok, err := expireCardBucket(ctx, c, b)
	return ok, err
}

// expireCardBucket is ExpireCardBucket returning the transaction it booked
// (nil when nothing was left in the bucket).
func expireCardBucket(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (*ent.CardTransaction, bool, error) {
	q := c.Card.Query().Where(card.ID(*b.CardID))
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	crd, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusACTIVE, pointsbucket.StatusEXPIRED)
		return nil, ok, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("locking card %s: %w", *b.CardID, err)
	}
	ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusACTIVE, pointsbucket.StatusEXPIRED)
	if err != nil || !ok {
		return nil, false, err
	}
	// Read after the card lock: spends before it have emptied the bucket.
	if b, err = c.PointsBucket.Get(ctx, b.ID); err != nil {
		return nil, false, fmt.Errorf("reading bucket: %w", err)
	}
	left := min(b.Points, crd.Balance)
	if left <= 0 {
		return nil, true, nil
	}
	reason := expiredReason
	tx, err := BookCardPoints(ctx, crd.ID, CardMove{Typ: cardtransaction.TypePOINTS_EXPIRED, Points: -left, Reason: &reason, SourceID: &b.ID})
	return tx, err == nil, err
}
