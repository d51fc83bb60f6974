package loyaltyv1

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/loyaltytier"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// TierPoints is a tier's inclusive points range; a missing bound leaves
// that side open.
type TierPoints struct {
	From *int64 `json:"from"`
	To   *int64 `json:"to"`
}

// TierInput is one tier of POST /v1/loyalties/{campaignId}/tiers (the
// body is an array).
type TierInput struct {
	Name   string      `json:"name"`
	Points *TierPoints `json:"points"`
	// EarningRules maps the program's earning rules (ern_…) to what they
	// award in this tier: {type: MULTIPLY, multiplier} or {type: CUSTOM,
	// points}. Rewards maps reward assignments the same way (kept as sent).
	EarningRules map[string]any `json:"earning_rules"`
	Rewards      map[string]any `json:"rewards"`
	Metadata     map[string]any `json:"metadata"`
}

// maxTiersPerRequest bounds one create request.
const maxTiersPerRequest = 50

// CreateTiers adds tiers to a program, all or none: each range must not
// overlap the program's other tiers nor each other (400), and each
// earning-rule mapping must name a rule of the program (404). Creations
// for one program run one at a time (a lock on the program), so two
// concurrent requests cannot add overlapping tiers.
func CreateTiers(ctx context.Context, programIDOrName string, in []*TierInput) ([]*ent.LoyaltyTier, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 || len(in) > maxTiersPerRequest {
		return nil, apperr.InvalidPayload("Payload must be an array of 1 to %d tiers", maxTiersPerRequest)
	}
	if err := store.LockKey(ctx, "loyalty-tiers:"+cmp.ID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	taken, err := c.LoyaltyTier.Query().Where(loyaltytier.CampaignID(cmp.ID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading tiers: %w", err)
	}
	out := make([]*ent.LoyaltyTier, 0, len(in))
	for i, t := range in {
		if t == nil {
			return nil, apperr.InvalidPayload("Property [%d] must be an object", i)
		}
		if err := checkTier(ctx, cmp.ID, t); err != nil {
			return nil, prefixed(i, err)
		}
		pts := TierPoints{}
		if t.Points != nil {
			pts = *t.Points
		}
		for _, other := range append(taken, out...) {
			if overlaps(pts, TierPoints{From: other.PointsFrom, To: other.PointsTo}) {
				return nil, apperr.InvalidPayload("Property [%d].points overlaps the points of tier %s (%s)", i, other.Name, other.ID)
			}
		}
		create := c.LoyaltyTier.Create().SetCampaignID(cmp.ID).SetName(t.Name).SetNillablePointsFrom(pts.From).
			SetNillablePointsTo(pts.To).SetEarningRules(orEmpty(t.EarningRules)).SetRewards(orEmpty(t.Rewards))
		if t.Metadata != nil {
			create.SetMetadata(t.Metadata)
		}
		tier, err := create.Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("creating tier: %w", err)
		}
		out = append(out, tier)
	}
	return out, nil
}

func checkTier(ctx context.Context, campaignID string, t *TierInput) error {
	if strings.TrimSpace(t.Name) == "" {
		return apperr.InvalidPayload("Property .name is required")
	}
	if len([]rune(t.Name)) > 200 {
		return apperr.InvalidPayload("Property .name must be at most 200 characters long")
	}
	if p := t.Points; p != nil {
		for _, b := range []*int64{p.From, p.To} {
			if b != nil && (*b < 0 || *b > loyalty.MaxPoints) {
				return apperr.InvalidPayload("Property .points bounds must be from 0 to %d", int64(loyalty.MaxPoints))
			}
		}
		if p.From != nil && p.To != nil && *p.From > *p.To {
			return apperr.InvalidPayload("Property .points.from must not be above .points.to")
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	for id, m := range t.EarningRules {
		if _, err := parseMapping(m); err != nil {
			return apperr.InvalidPayload("Property .earning_rules.%s %s", id, err.Error())
		}
		ok, err := c.CampaignEarningRule.Query().Where(campaignearningrule.ID(id), campaignearningrule.CampaignID(campaignID)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("looking up earning rule: %w", err)
		}
		if !ok {
			return apperr.NotFound("earning_rule", id)
		}
	}
	for id, m := range t.Rewards {
		if _, err := parseMapping(m); err != nil {
			return apperr.InvalidPayload("Property .rewards.%s %s", id, err.Error())
		}
	}
	return nil
}

// overlaps reports whether two inclusive ranges (nil: open) share a point.
func overlaps(a, b TierPoints) bool {
	lo := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	hi := func(p *int64) int64 {
		if p == nil {
			return math.MaxInt64
		}
		return *p
	}
	return lo(a.From) <= hi(b.To) && lo(b.From) <= hi(a.To)
}

// mapping is a tier's change to an earning rule's award.
type mapping struct {
	typ        string
	multiplier float64
	points     int64
}

// parseMapping reads {type: MULTIPLY, multiplier > 0} or {type: CUSTOM,
// points ≥ 0}.
func parseMapping(v any) (mapping, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return mapping{}, fmt.Errorf("must be an object")
	}
	switch m["type"] {
	case "MULTIPLY":
		f := number(m["multiplier"])
		if f == nil || *f <= 0 || *f > 1000 {
			return mapping{}, fmt.Errorf("must have a multiplier above 0 and at most 1000")
		}
		return mapping{typ: "MULTIPLY", multiplier: *f}, nil
	case "CUSTOM":
		f := number(m["points"])
		if f == nil || *f < 0 || *f > loyalty.MaxPoints || *f != math.Floor(*f) {
			return mapping{}, fmt.Errorf("must have whole points from 0 to %d", int64(loyalty.MaxPoints))
		}
		return mapping{typ: "CUSTOM", points: int64(*f)}, nil
	}
	return mapping{}, fmt.Errorf("must have type MULTIPLY or CUSTOM")
}

// apply is what an award of points becomes in the tier (reference U6:
// MULTIPLY rounds down).
func (m mapping) apply(points int64) int64 {
	if m.typ == "CUSTOM" {
		return m.points
	}
	return loyalty.Creditable(float64(points) * m.multiplier)
}
