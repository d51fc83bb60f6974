package points

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/predicate"
)

// Card names the card a bucket belongs to: a v1 card (VoucherID, a
// LOYALTY_CARD voucher) or a v2 card (CardID), with its program and holder.
type Card struct {
	VoucherID, CardID      *string
	CampaignID, CustomerID *string
}

// of selects the card's buckets.
func (k Card) of() predicate.PointsBucket {
	if k.VoucherID != nil {
		return pointsbucket.VoucherID(*k.VoucherID)
	}
	if k.CardID != nil {
		return pointsbucket.CardID(*k.CardID)
	}
	return pointsbucket.ID("") // no card: nothing
}

// Credit puts points credited to the card at now into a new ACTIVE bucket
// dated by exp; source is the transaction type that moved them. The caller
// holds the card locked and books the balance change in the same
// transaction.
func Credit(ctx context.Context, c *ent.Client, k Card, points int64, exp Expiry, source string, now time.Time) (*ent.PointsBucket, error) {
	if points <= 0 {
		return nil, nil
	}
	last, err := exp.LastDay(now)
	if err != nil {
		return nil, err
	}
	b, err := c.PointsBucket.Create().SetNillableVoucherID(k.VoucherID).SetNillableCardID(k.CardID).
		SetNillableCampaignID(k.CampaignID).SetNillableCustomerID(k.CustomerID).SetPoints(points).
		SetStatus(pointsbucket.StatusACTIVE).SetNillableExpiresAt(last).SetSource(source).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("points: creating bucket: %w", err)
	}
	return b, nil
}

// Debit takes points spent from the card's ACTIVE buckets, those that
// expire soonest first (never-expiring ones last, oldest first among
// equals). Points beyond what the buckets hold came from before buckets
// existed: they are simply gone. The caller holds the card locked.
func Debit(ctx context.Context, c *ent.Client, k Card, points int64) error {
	for points > 0 {
		bs, err := c.PointsBucket.Query().Where(k.of(), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE), pointsbucket.PointsGT(0)).
			Order(pointsbucket.ByExpiresAt(sql.OrderNullsLast()), pointsbucket.ByID()).Limit(50).All(ctx)
		if err != nil {
			return fmt.Errorf("points: reading buckets: %w", err)
		}
		if len(bs) == 0 {
			return nil
		}
		for _, b := range bs {
			take := min(points, b.Points)
			if err := c.PointsBucket.UpdateOneID(b.ID).AddPoints(-take).Exec(ctx); err != nil {
				return fmt.Errorf("points: emptying bucket: %w", err)
			}
			if points -= take; points == 0 {
				return nil
			}
		}
	}
	return nil
}

// NextExpiry is the card's soonest expiry day among buckets that still
// hold points, and how many points expire then (nil when none expire).
func NextExpiry(ctx context.Context, c *ent.Client, k Card) (*string, *int64, error) {
	b, err := c.PointsBucket.Query().Where(k.of(), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE), pointsbucket.PointsGT(0),
		pointsbucket.ExpiresAtNotNil()).Order(pointsbucket.ByExpiresAt()).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("points: reading next expiry: %w", err)
	}
	var sum []struct {
		Sum int64 `json:"sum"`
	}
	if err := c.PointsBucket.Query().Where(k.of(), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE),
		pointsbucket.ExpiresAt(*b.ExpiresAt)).Aggregate(ent.Sum(pointsbucket.FieldPoints)).Scan(ctx, &sum); err != nil {
		return nil, nil, fmt.Errorf("points: summing next expiry: %w", err)
	}
	d := b.ExpiresAt.UTC().Format(time.DateOnly)
	var total int64
	if len(sum) > 0 {
		total = sum[0].Sum
	}
	return &d, &total, nil
}
