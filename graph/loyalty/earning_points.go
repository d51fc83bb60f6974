package loyalty

// How many points an earning rule's effect gives (fixed, proportional to
// the order or a customer's metadata) and when they expire (earning.go
// awards them).

import (
	"context"
	"math"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// EffectPoints is what one effect awards, and the card definition it is
// limited to (nil: any card).
func EffectPoints(ctx context.Context, e jsonfield.EarningEffect, cust *ent.Customer, o *ent.Order) (int64, *string, error) {
	pts, defID, err := effectPointsRaw(ctx, e, cust, o)
	if err != nil {
		return 0, nil, err
	}
	return creditable(pts), defID, nil
}

// creditable is a computed award as whole points: rounded down, and 0 for
// anything that is not a finite amount up to MaxPoints (a rule stored
// before values were checked, or a proportional award of a huge metadata
// value), so a value that cannot be credited exactly is never credited at
// all rather than truncated or overflowed.
func creditable(pts float64) int64 {
	if math.IsNaN(pts) || pts < 0 || pts > MaxPoints {
		return 0
	}
	return int64(math.Floor(pts))
}

// effectPointsRaw is effectPoints before the conversion to whole points.
func effectPointsRaw(ctx context.Context, e jsonfield.EarningEffect, cust *ent.Customer, o *ent.Order) (float64, *string, error) {
	switch {
	case e.Points != nil && e.Points.Value != nil:
		return *e.Points.Value, e.Points.CardDefinitionID, nil
	case e.Incentive != nil:
		c, err := store.Client(ctx)
		if err != nil {
			return 0, nil, err
		}
		inc, err := c.Incentive.Get(ctx, e.Incentive.ID)
		if err := loyaltybase.NotFound(err, "incentive", e.Incentive.ID); err != nil {
			return 0, nil, err
		}
		if inc.Points == nil || inc.Points.Value == nil {
			return 0, nil, nil // material and digital incentives award no points
		}
		return *inc.Points.Value, inc.Points.CardDefinitionID, nil
	case e.PointsProportional != nil:
		if o != nil {
			if pts, ok := orderProportionalPoints(e.PointsProportional, o); ok {
				return pts, e.PointsProportional.CardDefinitionID, nil
			}
		}
		return proportionalPoints(e.PointsProportional, cust)
	}
	return 0, nil, nil
}

// proportionalPoints computes a CUSTOMER_METADATA_VALUE effect; the other
// calculation types need an order, which custom events do not carry.
func proportionalPoints(p *jsonfield.PointsProportional, cust *ent.Customer) (float64, *string, error) {
	if p.CalculationType == nil || *p.CalculationType != "CUSTOMER_METADATA_VALUE" || p.Customer == nil || p.Customer.Metadata == nil {
		return 0, nil, nil
	}
	rule := p.Customer.Metadata
	if rule.Property == nil || rule.Every == nil || *rule.Every <= 0 || rule.Value == nil {
		return 0, nil, nil
	}
	raw, ok := JSONNumber(cust.Metadata[*rule.Property])
	if !ok {
		return 0, nil, nil
	}
	return Proportional(raw, *rule.Every, *rule.Value), p.CardDefinitionID, nil
}

// Proportional is the proportional earning formula of both loyalty APIs:
// value / every, rounded down, times points (0 when every is not
// positive). Amounts are in cents (v1 `every: 1000, points: 3` is 3
// points per 10.00). Callers turn it into whole points with Creditable.
func Proportional(value, every, points float64) float64 {
	if every <= 0 {
		return 0
	}
	return math.Floor(value/every) * points
}

// Creditable is a computed award as whole points (creditable): rounded
// down, 0 when it is not a finite amount up to MaxPoints.
func Creditable(pts float64) int64 { return creditable(pts) }

// WithinHours reports whether now falls in one of the daily windows
// (withinHours; no windows: always).
func WithinHours(h *jsonfield.EarningValidityHours, now time.Time) bool { return withinHours(h, now) }

// effectExpiration is how the points of an effect expire (nil: never).
func effectExpiration(e jsonfield.EarningEffect) *jsonfield.PointsExpiration {
	switch {
	case e.Points != nil:
		return e.Points.PointsExpiration
	case e.PointsProportional != nil:
		return e.PointsProportional.PointsExpiration
	}
	return nil
}
