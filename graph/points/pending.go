package points

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Pending is a pending-points entry to record: points earned that join the
// balance on ActivatesOn (or when activated by hand), then expire by
// Rules counted from the activation.
type Pending struct {
	Card
	OrderID     *string
	Points      int64
	ActivatesOn time.Time
	Rules       map[string]any
	Details     map[string]any
}

// AddPending records a PENDING entry (lopp_…); the card's balance does not
// change.
func AddPending(ctx context.Context, c *ent.Client, p Pending) (*ent.PointsBucket, error) {
	b, err := c.PointsBucket.Create().SetID(pulid.PrefixPendingPoints + pulid.Ordered(4)).
		SetNillableVoucherID(p.VoucherID).SetNillableCardID(p.CardID).SetNillableCampaignID(p.CampaignID).
		SetNillableCustomerID(p.CustomerID).SetNillableOrderID(p.OrderID).SetPoints(p.Points).
		SetStatus(pointsbucket.StatusPENDING).SetActivatesAt(day(p.ActivatesOn)).SetSource("POINTS_ACCRUAL").
		SetDetails(p.Details).SetExpirationRules(p.Rules).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("points: recording pending points: %w", err)
	}
	return b, nil
}

// Move changes a bucket's state from one status to another with one guarded
// UPDATE … WHERE status = from: of several transactions (or processes)
// moving the same bucket, exactly one sees true; the others see false and
// must not book anything.
func Move(ctx context.Context, c *ent.Client, id string, from, to pointsbucket.Status) (bool, error) {
	n, err := c.PointsBucket.Update().Where(pointsbucket.ID(id), pointsbucket.StatusEQ(from)).SetStatus(to).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("points: moving bucket %s to %s: %w", id, to, err)
	}
	return n == 1, nil
}

// Due lists up to limit buckets of every project whose day has come at
// now: ACTIVE buckets whose last day is before today (to expire), or
// PENDING entries whose activation day is today or earlier (to activate).
// ctx must see every project (a system context).
func Due(ctx context.Context, c *ent.Client, status pointsbucket.Status, now time.Time, limit int) ([]*ent.PointsBucket, error) {
	q := c.PointsBucket.Query().Where(pointsbucket.StatusEQ(status))
	if status == pointsbucket.StatusPENDING {
		q.Where(pointsbucket.ActivatesAtLTE(day(now))).Order(pointsbucket.ByActivatesAt(), pointsbucket.ByID())
	} else {
		q.Where(pointsbucket.ExpiresAtLT(day(now))).Order(pointsbucket.ByExpiresAt(), pointsbucket.ByID())
	}
	bs, err := q.Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("points: listing due buckets: %w", err)
	}
	return bs, nil
}

// Day is t's calendar day, midnight UTC: the form of expires_at and
// activates_at.
func Day(t time.Time) time.Time { return day(t) }
