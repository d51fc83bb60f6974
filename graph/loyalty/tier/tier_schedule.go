package tier

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/ent/structuretier"
	"github.com/promoengine/promoengine/ent/tierstructure"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The daily job's v2 tier step (SettleTierSchedules, run by
// loyaltyv1.RunDailyPoints beside the v1 tier step): for each ACTIVE tier
// structure whose tiers expire (tiersExpire), whose points count from the
// next tracking period (POINT_EARNED NEXT_TRACKING_PERIOD) or that has
// SEGMENT tiers, each member with a tier history in it (and, for
// NEXT_TRACKING_PERIOD, each member whose card earned in the tracking
// period that just ended; for SEGMENT tiers, each member whose customer is
// in one of their segments) is settled under its card's lock (the lock
// every booking takes):
//   - a higher tier it now qualifies for (the clock brought last period's
//     points in, or a segment) is recorded at once (UPGRADED/JOINED);
//   - in a structure whose tiers do not expire, a lower one too
//     (DOWNGRADED/LEFT: last period's points stopped counting);
//   - a held tier whose expiry (tierExpiry from the row that started it,
//     plus the downgrade's grace period: tierDueDate) has come moves to
//     downgradeTarget of the tier it qualifies for then — PROLONGED when it
//     stays (a new period from now), DOWNGRADED or LEFT otherwise: exactly
//     the risk the memberships' tier_progress showed (addTierRisk).
// The row is dated by the job's clock, so the next look (another worker
// waiting on the lock, a second run) finds the new period and does nothing.

// SettleTierSchedules runs the v2 tier step at now (ctx carries the ent
// client, the dialect and the clock) and reports the members it moved or
// prolonged.
func SettleTierSchedules(ctx context.Context, now time.Time) (int, error) {
	ctx = clock.WithNow(ctx, now)
	sys := viewer.NewSystemContext(ctx)
	c := ent.FromContext(ctx)
	structures, err := c.TierStructure.Query().Where(tierstructure.Status("ACTIVE")).All(sys)
	if err != nil {
		return 0, fmt.Errorf("daily tier job: reading tier structures: %w", err)
	}
	done := 0
	var firstErr error
	for _, ts := range structures {
		next := ts.Type == "POINT_EARNED" && ts.PointEarned["type"] == "NEXT_TRACKING_PERIOD"
		segments, err := c.StructureTier.Query().Where(structuretier.TierStructureID(ts.ID), structuretier.QualificationType("SEGMENT"),
			structuretier.SegmentIDNotNil()).Select(structuretier.FieldSegmentID).Strings(sys)
		if err != nil {
			return done, fmt.Errorf("daily tier job: reading segment tiers: %w", err)
		}
		if !tiersExpire(ts) && !next && len(segments) == 0 {
			continue
		}
		members, err := tierScheduleMembers(sys, c, ts, now, next)
		if err != nil {
			return done, err
		}
		if members, err = withSegmentMembers(sys, c, ts, segments, members); err != nil {
			return done, err
		}
		pctx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: ts.ProjectID})
		for _, id := range members {
			// First without a lock or a transaction: most members have
			// nothing due, and only those that do are locked.
			moved, err := settleMemberTier(pctx, ts, id, now, true)
			if err == nil && moved {
				err = store.InTx(pctx, func(ctx context.Context) error {
					moved, err = settleMemberTier(ctx, ts, id, now, false)
					return err
				})
			}
			if moved {
				done++
			}
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("daily tier job: member %s in %s: %w", id, ts.ID, err)
			}
		}
	}
	return done, firstErr
}

// tierScheduleMembers are the members of ts the step looks at.
func tierScheduleMembers(sys context.Context, c *ent.Client, ts *ent.TierStructure, now time.Time, next bool) ([]string, error) {
	ids, err := c.TierTransaction.Query().Where(tiertransaction.TierStructureID(ts.ID)).Unique(true).
		Select(tiertransaction.FieldMemberID).Strings(sys)
	if err != nil {
		return nil, fmt.Errorf("daily tier job: reading tier holders: %w", err)
	}
	if !next {
		return ids, nil
	}
	since, until := trackingWindow(ts.PointEarned, now)
	cards, err := c.CardTransaction.Query().Where(cardtransaction.TypeIn(cardtransaction.TypePOINTS_ADDITION),
		cardtransaction.AmountGT(0), cardtransaction.CreatedAtGTE(since), cardtransaction.CreatedAtLTE(until),
		cardtransaction.HasCardWith(card.CardDefinitionID(ts.CardDefinitionID), card.MemberIDNotNil())).
		Unique(true).Select(cardtransaction.FieldCardID).Strings(sys)
	if err != nil {
		return nil, fmt.Errorf("daily tier job: reading last period's earners: %w", err)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	for start := 0; start < len(cards); start += 500 {
		var earners []string
		err := c.Card.Query().Where(card.IDIn(cards[start:min(start+500, len(cards))]...)).Unique(true).
			Select(card.FieldMemberID).Scan(sys, &earners)
		if err != nil {
			return nil, fmt.Errorf("daily tier job: reading last period's earners: %w", err)
		}
		for _, id := range earners {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

// withSegmentMembers adds to members the members, in the programs ts is
// assigned to, whose customer is in one of the segments of ts's SEGMENT
// tiers (they may hold such a tier without a tier history yet).
func withSegmentMembers(sys context.Context, c *ent.Client, ts *ent.TierStructure, segments, members []string) ([]string, error) {
	if len(segments) == 0 {
		return members, nil
	}
	progs, err := c.LoyaltyProgram.Query().Where(loyaltyprogram.ProjectID(ts.ProjectID), loyaltyprogram.TierStructureIdsNotNil()).All(sys)
	if err != nil {
		return nil, fmt.Errorf("daily tier job: reading programs: %w", err)
	}
	var assigned []string
	for _, p := range progs {
		if slices.Contains(p.TierStructureIds, ts.ID) {
			assigned = append(assigned, p.ID)
		}
	}
	if len(assigned) == 0 {
		return members, nil
	}
	customers, err := c.SegmentMember.Query().Where(segmentmember.SegmentIDIn(segments...)).Unique(true).
		Select(segmentmember.FieldCustomerID).Strings(sys)
	if err != nil {
		return nil, fmt.Errorf("daily tier job: reading segment members: %w", err)
	}
	seen := map[string]bool{}
	for _, id := range members {
		seen[id] = true
	}
	for start := 0; start < len(customers); start += 500 {
		ids, err := c.LoyaltyMember.Query().Where(loyaltymember.ProgramIDIn(assigned...),
			loyaltymember.CustomerIDIn(customers[start:min(start+500, len(customers))]...)).IDs(sys)
		if err != nil {
			return nil, fmt.Errorf("daily tier job: reading segment members: %w", err)
		}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				members = append(members, id)
			}
		}
	}
	return members, nil
}

// settleMemberTier settles member memberID's tier in ts at now under its
// card's lock (see above); false when there was nothing to do. A dry run
// takes no lock and writes nothing: it says whether there is something to
// do.
func settleMemberTier(ctx context.Context, ts *ent.TierStructure, memberID string, now time.Time, dry bool) (bool, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return false, err
	}
	m, err := c.LoyaltyMember.Get(ctx, memberID)
	if ent.IsNotFound(err) {
		return false, nil // deleted
	}
	if err != nil {
		return false, fmt.Errorf("reading member: %w", err)
	}
	q := c.Card.Query().Where(card.MemberID(m.ID), card.CardDefinitionID(ts.CardDefinitionID))
	if !dry && entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	crd, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("locking the member's card: %w", err)
	}
	held, last, err := heldTier(ctx, c, m.ID, ts)
	if err != nil {
		return false, err
	}
	pts, err := structurePoints(ctx, ts, m.ID, 0)
	if err != nil {
		return false, err
	}
	pts, err = pointsAt(ctx, c, m, ts, pts, now) // as the risk computed them (addTierRisk)
	if err != nil {
		return false, err
	}
	qual, err := qualifyingTier(ctx, c, m, ts, pts)
	if err != nil {
		return false, err
	}
	record := func(to *ent.StructureTier) (bool, error) {
		if dry {
			return true, nil
		}
		return true, recordStructureTier(ctx, c, m.ID, crd.ProgramID, ts, held, to, pts, nil)
	}
	switch {
	case tierRank(qual) > tierRank(held):
		return record(qual)
	case held == nil || last == nil:
		return false, nil
	case !tiersExpire(ts):
		if tierID(qual) != tierID(held) {
			return record(qual)
		}
		return false, nil
	}
	start := last.CreatedAt
	exp, err := tierExpiry(ctx, c, m, ts, &start, now)
	if err != nil || exp == nil || now.Before(tierDueDate(ts, *exp)) {
		return false, err
	}
	tiers, err := c.StructureTier.Query().Where(structuretier.TierStructureID(ts.ID), structuretier.QualificationType("POINTS"),
		structuretier.MinPointsNotNil()).All(ctx)
	if err != nil {
		return false, fmt.Errorf("reading tiers: %w", err)
	}
	sort.Slice(tiers, func(i, j int) bool { return *tiers[i].MinPoints < *tiers[j].MinPoints })
	return record(downgradeTarget(ts, tiers, held, qual))
}
