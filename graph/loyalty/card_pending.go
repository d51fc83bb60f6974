package loyalty

import (
	"context"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Pending points of v2 cards: nothing creates them yet (v2 earning rules
// have no pending period; see docs/loyalty.md), so a card's list is empty
// and every bucket id is unknown. The routes answer as documented so that
// clients see the shapes they expect.

// CardPendingPoints is a card's pending buckets: always none yet, after
// checking that the program, member and card exist (404 otherwise).
func CardPendingPoints(ctx context.Context, programID, memberID, cardID string, p PageInput) (*CardBucketPage, error) {
	if _, err := p.limit(); err != nil {
		return nil, err
	}
	if _, err := memberCard(ctx, programID, memberID, cardID); err != nil {
		return nil, err
	}
	return &CardBucketPage{Data: []*CardBucket{}}, nil
}

// CardPendingBucket resolves a pending bucket of the card (activate,
// cancel): the card must exist, and no bucket does yet, so it is 404
// card_pending_points_bucket.
func CardPendingBucket(ctx context.Context, programID, memberID, cardID, bucketID string) error {
	if _, err := memberCard(ctx, programID, memberID, cardID); err != nil {
		return err
	}
	return apperr.NotFound("card_pending_points_bucket", bucketID)
}
