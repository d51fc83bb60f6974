package tier

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/ent/structuretier"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// The tier a member holds in a structure (loyalties-v2.json tier
// structures: expiration, downgrade, SEGMENT tiers, point_earned.type).
//   - The tier the member qualifies for now: a SEGMENT tier whose segment
//     holds the member's customer (the first such tier created; a segment
//     tier ranks above every POINTS tier), else the POINTS tier whose range
//     holds the points that count (structurePoints).
//   - The tier it holds: the one its latest tier transaction recorded.
//     A higher tier takes over at once (the booking that reaches it
//     records UPGRADED/JOINED). A lower one takes over at once only when
//     the structure's tiers do not expire (expiration NO_EXPIRATION or
//     absent); otherwise the member keeps its tier until the expiry (and
//     the downgrade's grace period), when the daily job settles it
//     (tier_schedule.go): prolonged (PROLONGED, a new period from then)
//     when the member still qualifies or the downgrade is NO_DOWNGRADE
//     (the structure's, or the tier's own downgrade_type), else moved to
//     downgradeTarget (DOWNGRADED, or LEFT for no tier).
// The memberships' tier_progress shows the held tier, its expiry and the
// risk downgradeTarget computes for that date: what the job will do.

// segmentRank ranks every SEGMENT tier above the POINTS tiers.
const segmentRank = int64(1) << 62

// tierRank orders a structure's tiers (nil: no tier, lowest).
func tierRank(t *ent.StructureTier) int64 {
	switch {
	case t == nil:
		return -1 << 62
	case t.QualificationType == "SEGMENT":
		return segmentRank
	case t.MinPoints == nil:
		return 0
	}
	return *t.MinPoints
}

// tiersExpire says whether ts's tiers are kept until an expiry (a lower
// qualification then waits for the daily job).
func tiersExpire(ts *ent.TierStructure) bool {
	switch ts.Expiration["type"] {
	case "ROLLING_EXPIRATION", "FIXED_DURATION", "CALENDAR_EXPIRATION", "SLIDING_EXPIRATION":
		return true
	}
	return false
}

// qualifyingTier is the tier member m qualifies for in ts with pts points.
func qualifyingTier(ctx context.Context, c *ent.Client, m *ent.LoyaltyMember, ts *ent.TierStructure, pts int64) (*ent.StructureTier, error) {
	segs, err := c.StructureTier.Query().Where(structuretier.TierStructureID(ts.ID), structuretier.QualificationType("SEGMENT"),
		structuretier.SegmentIDNotNil()).Order(ent.Asc(structuretier.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading segment tiers: %w", err)
	}
	if len(segs) > 0 && m != nil {
		ids := make([]string, len(segs))
		for i, t := range segs {
			ids[i] = *t.SegmentID
		}
		in, err := c.SegmentMember.Query().Where(segmentmember.CustomerID(m.CustomerID), segmentmember.SegmentIDIn(ids...)).
			Select(segmentmember.FieldSegmentID).Strings(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading the customer's segments: %w", err)
		}
		member := map[string]bool{}
		for _, s := range in {
			member[s] = true
		}
		for _, t := range segs {
			if member[*t.SegmentID] {
				return t, nil
			}
		}
	}
	return tierFor(ctx, ts.ID, pts)
}

// heldTier is the tier member memberID's latest tier transaction in ts
// left it in, with that row (nil, nil: no row).
func heldTier(ctx context.Context, c *ent.Client, memberID string, ts *ent.TierStructure) (*ent.StructureTier, *ent.TierTransaction, error) {
	last, err := c.TierTransaction.Query().Where(tiertransaction.MemberID(memberID), tiertransaction.TierStructureID(ts.ID)).
		Order(ent.Desc(tiertransaction.FieldCreatedAt), ent.Desc(tiertransaction.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading tier transactions: %w", err)
	}
	if last.ToTierID == nil {
		return nil, last, nil
	}
	t, err := c.StructureTier.Get(ctx, *last.ToTierID)
	if ent.IsNotFound(err) {
		return nil, last, nil // the tier was deleted: none held
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading tier: %w", err)
	}
	return t, last, nil
}

// shownTier is the tier the member holds now: the qualifying one when it
// ranks at least as high as the held one, or when ts's tiers do not
// expire; else the held one (kept until its expiry).
func shownTier(ts *ent.TierStructure, held, qualifying *ent.StructureTier, recorded bool) *ent.StructureTier {
	if !recorded || !tiersExpire(ts) || held == nil || tierRank(qualifying) >= tierRank(held) {
		return qualifying
	}
	return held
}

// downgradeMode is the downgrade of held in ts: the tier's own
// downgrade_type unless INHERIT, else the structure's (default
// NO_DOWNGRADE, as the document says).
func downgradeMode(ts *ent.TierStructure, held *ent.StructureTier) string {
	if held != nil && held.DowngradeType != "" && held.DowngradeType != "INHERIT" {
		return held.DowngradeType
	}
	if t, _ := ts.Downgrade["type"].(string); t != "" {
		return t
	}
	return "NO_DOWNGRADE"
}

// downgradeTarget is the tier a member holding held moves to at its
// expiry when it then qualifies for q: held itself when q ranks as high or
// the downgrade is NO_DOWNGRADE; SINGLE_LEVEL the next POINTS tier below
// held (none below: no tier) unless q is higher; MULTI_LEVEL q. tiers are
// ts's POINTS tiers.
func downgradeTarget(ts *ent.TierStructure, tiers []*ent.StructureTier, held, q *ent.StructureTier) *ent.StructureTier {
	if tierRank(q) >= tierRank(held) {
		return q
	}
	switch downgradeMode(ts, held) {
	case "NO_DOWNGRADE":
		return held
	case "SINGLE_LEVEL":
		var below *ent.StructureTier
		for _, t := range tiers {
			if tierRank(t) < tierRank(held) && (below == nil || tierRank(t) > tierRank(below)) {
				below = t
			}
		}
		if tierRank(q) > tierRank(below) {
			return q
		}
		return below
	}
	return q
}

// trackingWindow is the window of a POINT_EARNED structure's points at
// at: the rolling period before at (IMMEDIATELY), or with
// NEXT_TRACKING_PERIOD the last completed calendar-aligned tracking period
// (periods of value units counted from 1970-01-01, weeks from Monday
// 1970-01-05): points earned in one period count through the next.
func trackingWindow(pe map[string]any, at time.Time) (time.Time, time.Time) {
	if pe["type"] != "NEXT_TRACKING_PERIOD" {
		return at.Add(-earnedPeriod(pe)), at
	}
	period, _ := pe["period"].(map[string]any)
	f, _ := loyalty.JSONNumber(period["value"])
	v := max(int(f), 1)
	at = at.UTC()
	var cur, prev time.Time
	switch period["unit"] {
	case "HOUR", "DAY", "WEEK":
		step := map[any]time.Duration{"HOUR": time.Hour, "DAY": 24 * time.Hour, "WEEK": 7 * 24 * time.Hour}[period["unit"]] * time.Duration(v)
		epoch := time.Unix(0, 0).UTC()
		if period["unit"] == "WEEK" {
			epoch = time.Date(1970, 1, 5, 0, 0, 0, 0, time.UTC)
		}
		cur = epoch.Add(at.Sub(epoch) / step * step)
		prev = cur.Add(-step)
	case "MONTH":
		idx := (at.Year()-1970)*12 + int(at.Month()) - 1
		idx -= idx % v
		cur = time.Date(1970, time.Month(idx+1), 1, 0, 0, 0, 0, time.UTC)
		prev = cur.AddDate(0, -v, 0)
	default: // YEAR
		y := at.Year() - (at.Year()-1970)%v
		cur = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		prev = cur.AddDate(-v, 0, 0)
	}
	return prev, cur.Add(-time.Nanosecond)
}
