package tier

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/structuretier"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A member's tier progress on a card (the memberships' tier_progress,
// loyalties-v2-benefits.json MemberTierProgress), built from the member's
// tier in the first ACTIVE tier structure over the card's definition
// (memberTiers): the current tier with its points range, when the member
// entered it (the tier transaction that moved it there) and when it
// expires (the structure's expiration); the risk at that date (the tier
// the points that still count then put the member in, after the
// downgrade's grace period); the higher tiers and the points each lacks.
// Tier changes take effect at once or at the expiry (tier_holding.go), so
// nothing is ever deferred.

// TierProgress is a member's progress in one tier structure.
type TierProgress struct {
	Structure *ent.TierStructure
	// Current is the member's tier (nil: none), Points the points that
	// count for the structure.
	Current *ent.StructureTier
	Points  int64
	// StartAt is when the member entered Current (nil when no tier
	// transaction records it), ExpiresAt when the tier expires (nil: never).
	StartAt, ExpiresAt *time.Time
	Risks              []TierRisk
	Opportunities      []TierOpportunity
}

// TierRisk is a downgrade (Tier the lower tier) or a leave (Tier nil) due
// on Date.
type TierRisk struct {
	Type string // TIER_DOWNGRADE or TIER_LEFT
	Date time.Time
	Tier *ent.StructureTier
}

// TierOpportunity is a higher tier and the points missing to reach it,
// until ValidUntil (nil: no deadline).
type TierOpportunity struct {
	Tier       *ent.StructureTier
	Points     int64
	ValidUntil *time.Time
}

// MemberTierProgress computes the progress of member m in mt's structure.
func MemberTierProgress(ctx context.Context, m *ent.LoyaltyMember, mt *loyaltybase.MemberTier) (*TierProgress, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ts := mt.TierStructure
	tiers, err := c.StructureTier.Query().Where(structuretier.TierStructureID(ts.ID), structuretier.QualificationType("POINTS"),
		structuretier.MinPointsNotNil()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading tiers: %w", err)
	}
	sort.Slice(tiers, func(i, j int) bool { return *tiers[i].MinPoints < *tiers[j].MinPoints })
	p := &TierProgress{Structure: ts, Current: mt.Tier, Points: mt.Points, Risks: []TierRisk{}, Opportunities: []TierOpportunity{}}
	now := clock.At(ctx)
	if p.Current != nil {
		last, err := c.TierTransaction.Query().Where(tiertransaction.MemberID(m.ID), tiertransaction.TierStructureID(ts.ID),
			tiertransaction.ToTierID(p.Current.ID)).Order(ent.Desc(tiertransaction.FieldCreatedAt)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, fmt.Errorf("reading tier transactions: %w", err)
		}
		if last != nil {
			at := last.CreatedAt.UTC()
			p.StartAt = &at
		}
		if p.ExpiresAt, err = tierExpiry(ctx, c, m, ts, p.StartAt, now); err != nil {
			return nil, err
		}
		if err := addTierRisk(ctx, c, m, p, tiers); err != nil {
			return nil, err
		}
	}
	for _, t := range tiers {
		if *t.MinPoints > p.Points && tierRank(t) > tierRank(p.Current) {
			p.Opportunities = append(p.Opportunities, TierOpportunity{Tier: t, Points: *t.MinPoints - p.Points, ValidUntil: p.ExpiresAt})
		}
	}
	return p, nil
}

// tierExpiry is when the member's current tier expires by the structure's
// expiration: ROLLING_EXPIRATION (June's name; FIXED_DURATION in August's
// document) a period after it started, CALENDAR_EXPIRATION
// on the next of its calendar days, SLIDING_EXPIRATION a period after the
// last qualifying activity (earning or spending points, as configured; the
// start of the tier when there was none since). Nil for the other types.
func tierExpiry(ctx context.Context, c *ent.Client, m *ent.LoyaltyMember, ts *ent.TierStructure, start *time.Time, now time.Time) (*time.Time, error) {
	e := ts.Expiration
	switch e["type"] {
	case "ROLLING_EXPIRATION", "FIXED_DURATION":
		fixed, _ := e["rolling_expiration"].(map[string]any)
		if e["type"] == "FIXED_DURATION" {
			fixed, _ = e["fixed_duration"].(map[string]any)
		}
		period, ok := storedPeriod(fixed["period"])
		if !ok || start == nil {
			return nil, nil
		}
		t := loyalty.AddPeriod(*start, period)
		return &t, nil
	case "CALENDAR_EXPIRATION":
		cal, _ := e["calendar_expiration"].(map[string]any)
		raw, _ := cal["calendar_dates"].([]any)
		dates := make([]jsonfield.CalendarDate, 0, len(raw))
		for _, d := range raw {
			dm, _ := d.(map[string]any)
			day, _ := loyalty.JSONNumber(dm["day"])
			month, _ := loyalty.JSONNumber(dm["month"])
			if day >= 1 && month >= 1 && month <= 12 {
				dates = append(dates, jsonfield.CalendarDate{Day: int(day), Month: int(month)})
			}
		}
		from := now // the first calendar day after the tier started
		if start != nil {
			from = *start
		}
		if t := loyalty.NextFixedDate(from, dates); !t.IsZero() {
			return &t, nil
		}
	case "SLIDING_EXPIRATION":
		sliding, _ := e["sliding_expiration"].(map[string]any)
		period, ok := storedPeriod(sliding["period"])
		if !ok {
			return nil, nil
		}
		from, err := lastTierActivity(ctx, c, m, ts, sliding)
		if err != nil {
			return nil, err
		}
		if from == nil || (start != nil && start.After(*from)) {
			from = start
		}
		if from == nil {
			return nil, nil
		}
		t := loyalty.AddPeriod(*from, period)
		return &t, nil
	}
	return nil, nil
}

// lastTierActivity is the time of the member's last card transaction on the
// structure's card definition that extends a sliding expiration.
func lastTierActivity(ctx context.Context, c *ent.Client, m *ent.LoyaltyMember, ts *ent.TierStructure, sliding map[string]any) (*time.Time, error) {
	var types []cardtransaction.Type
	if sliding["earning_activity"] == true {
		types = append(types, cardtransaction.TypePOINTS_ADDITION)
	}
	if sliding["spending_activity"] == true {
		types = append(types, cardtransaction.TypePOINTS_SPENT_ON_REWARD, cardtransaction.TypePOINTS_SPENT_ON_ORDER)
	}
	if len(types) == 0 {
		return nil, nil
	}
	crd, err := loyalty.MemberCardOf(ctx, c, m.ID, ts.CardDefinitionID)
	if err != nil || crd == nil {
		return nil, err
	}
	last, err := c.CardTransaction.Query().Where(cardtransaction.CardID(crd.ID), cardtransaction.TypeIn(types...),
		cardtransaction.AmountNEQ(0)).Order(ent.Desc(cardtransaction.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading card activity: %w", err)
	}
	at := last.CreatedAt.UTC()
	return &at, nil
}

// addTierRisk adds the risk at the tier's expiry (after the downgrade's
// grace period): the tier the points that still count then
// (POINT_BALANCE: the balance less the buckets expiring before;
// POINT_EARNED: the points earned within the tracking window then) qualify
// the member for, moved by the downgrade (downgradeTarget, as the daily job
// moves it: tier_schedule.go) — none (TIER_LEFT) or a lower tier
// (TIER_DOWNGRADE). NO_DOWNGRADE, or a tier that never expires, has no risk.
func addTierRisk(ctx context.Context, c *ent.Client, m *ent.LoyaltyMember, p *TierProgress, tiers []*ent.StructureTier) error {
	if p.ExpiresAt == nil {
		return nil
	}
	date := tierDueDate(p.Structure, *p.ExpiresAt)
	pts, err := pointsAt(ctx, c, m, p.Structure, p.Points, date)
	if err != nil {
		return err
	}
	q, err := qualifyingTier(ctx, c, m, p.Structure, pts)
	if err != nil {
		return err
	}
	then := downgradeTarget(p.Structure, tiers, p.Current, q)
	switch {
	case then == nil:
		p.Risks = append(p.Risks, TierRisk{Type: "TIER_LEFT", Date: date})
	case tierRank(then) < tierRank(p.Current):
		p.Risks = append(p.Risks, TierRisk{Type: "TIER_DOWNGRADE", Date: date, Tier: then})
	}
	return nil
}

// tierDueDate is when a tier expiring at expires is settled: after the
// structure's downgrade grace period, if any.
func tierDueDate(ts *ent.TierStructure, expires time.Time) time.Time {
	if grace, ok := ts.Downgrade["grace_period"].(map[string]any); ok {
		if period, ok := storedPeriod(grace); ok {
			return loyalty.AddPeriod(expires, period)
		}
	}
	return expires
}

// pointsAt is the member's points that will count for ts at date, if
// nothing else happens meanwhile.
func pointsAt(ctx context.Context, c *ent.Client, m *ent.LoyaltyMember, ts *ent.TierStructure, now int64, date time.Time) (int64, error) {
	crd, err := loyalty.MemberCardOf(ctx, c, m.ID, ts.CardDefinitionID)
	if err != nil || crd == nil {
		return 0, err
	}
	var sums []struct {
		Sum int64 `json:"sum"`
	}
	if ts.Type == "POINT_EARNED" {
		since, until := trackingWindow(ts.PointEarned, date)
		err = c.CardTransaction.Query().Where(cardtransaction.CardID(crd.ID), cardtransaction.AmountGT(0),
			cardtransaction.TypeIn(cardtransaction.TypePOINTS_ADDITION), cardtransaction.CreatedAtGTE(since), cardtransaction.CreatedAtLTE(until)).
			Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
		if err != nil {
			return 0, fmt.Errorf("summing earned points: %w", err)
		}
		if len(sums) == 1 {
			return sums[0].Sum, nil
		}
		return 0, nil
	}
	err = c.PointsBucket.Query().Where(pointsbucket.CardID(crd.ID), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE),
		pointsbucket.ExpiresAtLT(date)).Aggregate(ent.As(ent.Sum(pointsbucket.FieldPoints), "sum")).Scan(ctx, &sums)
	if err != nil {
		return 0, fmt.Errorf("summing expiring points: %w", err)
	}
	if len(sums) == 1 {
		now -= sums[0].Sum
	}
	return max(now, 0), nil
}

// storedPeriod reads a stored {value, unit} period.
func storedPeriod(v any) (jsonfield.PendingPeriod, bool) {
	pm, _ := v.(map[string]any)
	value, _ := loyalty.JSONNumber(pm["value"])
	unit, _ := pm["unit"].(string)
	if value < 1 || (unit != "DAY" && unit != "MONTH" && unit != "YEAR") {
		return jsonfield.PendingPeriod{}, false
	}
	return jsonfield.PendingPeriod{Value: int(value), Unit: unit}, true
}
