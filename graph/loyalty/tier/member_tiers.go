package tier

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/structuretier"
	"github.com/promoengine/promoengine/ent/tierstructure"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A member's tiers: for each ACTIVE tier structure assigned to the
// member's program, the points that count (POINT_BALANCE: the balance of
// the member's card of the structure's card definition; POINT_EARNED: the
// points added to it within the structure's tracking window,
// trackingWindow) and the tier the member holds (tier_holding.go: a
// SEGMENT tier of a segment the customer is in, else the POINTS tier whose
// range holds the points — kept until its expiry when the structure's
// tiers expire). Every card booking re-computes the member's tiers of the
// card's definition and records a tier transaction when the held tier
// changes (TrackTiers, which loyalty.BookCardPoints calls through its hook); the daily job settles
// the expiries (tier_schedule.go).

// MemberTiers computes a member's place in each active structure of its
// program.
func MemberTiers(ctx context.Context, m *ent.LoyaltyMember) ([]*loyaltybase.MemberTier, error) {
	p, err := loyaltybase.Program(ctx, m.ProgramID)
	if err != nil {
		return nil, err
	}
	structures, err := activeStructures(ctx, p, "")
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := []*loyaltybase.MemberTier{}
	for _, ts := range structures {
		pts, err := structurePoints(ctx, ts, m.ID, 0)
		if err != nil {
			return nil, err
		}
		q, err := qualifyingTier(ctx, c, m, ts, pts)
		if err != nil {
			return nil, err
		}
		held, last, err := heldTier(ctx, c, m.ID, ts)
		if err != nil {
			return nil, err
		}
		out = append(out, &loyaltybase.MemberTier{TierStructure: ts, Tier: shownTier(ts, held, q, last != nil), Points: pts})
	}
	return out, nil
}

// activeStructures returns the program's ACTIVE tier structures (of the card
// definition defID when it is not "").
func activeStructures(ctx context.Context, p *ent.LoyaltyProgram, defID string) ([]*ent.TierStructure, error) {
	if len(p.TierStructureIds) == 0 {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.TierStructure.Query().Where(tierstructure.IDIn(p.TierStructureIds...), tierstructure.Status("ACTIVE"))
	if defID != "" {
		q = q.Where(tierstructure.CardDefinitionID(defID))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading tier structures: %w", err)
	}
	return loyalty.InOrder(rows, p.TierStructureIds, func(t *ent.TierStructure) string { return t.ID }), nil
}

// structurePoints returns the member's points that count for ts, minus
// undo (the points of a booking, to see the state before it).
func structurePoints(ctx context.Context, ts *ent.TierStructure, memberID string, undo int64) (int64, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	crd, err := c.Card.Query().Where(card.MemberID(memberID), card.CardDefinitionID(ts.CardDefinitionID)).First(ctx)
	if ent.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading member card: %w", err)
	}
	if ts.Type != "POINT_EARNED" {
		return crd.Balance - undo, nil
	}
	since, until := trackingWindow(ts.PointEarned, clock.At(ctx))
	var sums []struct {
		Sum int64 `json:"sum"`
	}
	err = c.CardTransaction.Query().Where(cardtransaction.CardID(crd.ID), cardtransaction.AmountGT(0),
		cardtransaction.TypeIn(cardtransaction.TypePOINTS_ADDITION), cardtransaction.CreatedAtGTE(since), cardtransaction.CreatedAtLTE(until)).
		Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
	if err != nil {
		return 0, fmt.Errorf("summing earned points: %w", err)
	}
	earned := int64(0)
	if len(sums) == 1 {
		earned = sums[0].Sum
	}
	if undo > 0 {
		earned -= undo
	}
	return earned, nil
}

// earnedPeriod is a POINT_EARNED structure's tracking period.
func earnedPeriod(pe map[string]any) time.Duration {
	period, _ := pe["period"].(map[string]any)
	v, _ := loyalty.JSONNumber(period["value"])
	day := 24 * time.Hour
	unit := map[string]time.Duration{"HOUR": time.Hour, "DAY": day, "WEEK": 7 * day, "MONTH": 30 * day, "YEAR": 365 * day}[fmt.Sprint(period["unit"])]
	if v < 1 || unit == 0 {
		return 365 * day
	}
	return time.Duration(v) * unit
}

// tierFor returns the POINTS tier of a structure whose range holds pts.
func tierFor(ctx context.Context, structureID string, pts int64) (*ent.StructureTier, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.StructureTier.Query().Where(structuretier.TierStructureID(structureID), structuretier.QualificationType("POINTS"),
		structuretier.MinPointsLTE(pts), structuretier.Or(structuretier.MaxPointsIsNil(), structuretier.MaxPointsGTE(pts))).
		First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading tier: %w", err)
	}
	return t, nil
}

// TrackTiers records a tier transaction for each structure over the card's
// definition in which the booking moved the member to another held tier
// (tier_holding.go: a higher tier at once; a lower one at once only when
// the structure's tiers do not expire). It is loyalty.TrackTiers,
// registered in graph/wiring.go.
func TrackTiers(ctx context.Context, crd *ent.Card, tx *ent.CardTransaction) error {
	if crd.MemberID == nil || crd.CardDefinitionID == nil {
		return nil
	}
	p, err := loyaltybase.Program(ctx, crd.ProgramID)
	if err != nil {
		return err
	}
	structures, err := activeStructures(ctx, p, *crd.CardDefinitionID)
	if err != nil || len(structures) == 0 {
		return err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	m, err := c.LoyaltyMember.Get(ctx, *crd.MemberID)
	if err != nil {
		return fmt.Errorf("reading member: %w", err)
	}
	for _, ts := range structures {
		if ts.Type == "POINT_EARNED" && (tx.Amount <= 0 || tx.Type != cardtransaction.TypePOINTS_ADDITION) {
			continue
		}
		after, err := structurePoints(ctx, ts, *crd.MemberID, 0)
		if err != nil {
			return err
		}
		held, last, err := heldTier(ctx, c, m.ID, ts)
		if err != nil {
			return err
		}
		if last == nil { // nothing recorded yet: the tier the points held before
			if held, err = qualifyingTier(ctx, c, m, ts, after-tx.Amount); err != nil {
				return err
			}
		}
		q, err := qualifyingTier(ctx, c, m, ts, after)
		if err != nil {
			return err
		}
		to := shownTier(ts, held, q, true)
		if tierID(held) == tierID(to) {
			continue
		}
		txID := tx.ID
		if err := recordStructureTier(ctx, c, m.ID, crd.ProgramID, ts, held, to, after, &txID); err != nil {
			return err
		}
	}
	return nil
}

// recordStructureTier records member memberID's move in ts from held to
// to (PROLONGED when they are the same tier), dated at the context's clock.
func recordStructureTier(ctx context.Context, c *ent.Client, memberID, programID string, ts *ent.TierStructure,
	held, to *ent.StructureTier, points int64, cardTxID *string) error {
	typ := "UPGRADED"
	switch {
	case tierID(held) == tierID(to):
		typ = "PROLONGED"
	case held == nil:
		typ = "JOINED"
	case to == nil:
		typ = "LEFT"
	case tierRank(to) < tierRank(held):
		typ = "DOWNGRADED"
	}
	from := held
	if typ == "PROLONGED" {
		from = nil
	}
	err := c.TierTransaction.Create().SetMemberID(memberID).SetProgramID(programID).SetTierStructureID(ts.ID).
		SetNillableFromTierID(nilIfEmpty(tierID(from))).SetNillableToTierID(nilIfEmpty(tierID(to))).SetType(typ).
		SetPoints(points).SetNillableCardTransactionID(cardTxID).SetCreatedAt(clock.At(ctx)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("recording tier transaction: %w", err)
	}
	return nil
}

func tierID(t *ent.StructureTier) string {
	if t == nil {
		return ""
	}
	return t.ID
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// MemberTierTransactions pages through a member's tier transactions.
func MemberTierTransactions(ctx context.Context, programID, memberID string, p loyaltybase.PageInput) (*loyaltybase.TierTransactionPage, error) {
	rows, more, err := loyalty.MemberRows(ctx, programID, memberID, p, loyalty.MemberKeyset[*ent.TierTransaction, predicate.TierTransaction, tiertransaction.OrderOption, *ent.TierTransactionQuery]{
		Query: func(c *ent.Client) *ent.TierTransactionQuery { return c.TierTransaction.Query() },
		ByID:  tiertransaction.ID, Scope: []predicate.TierTransaction{tiertransaction.MemberID(memberID)},
		CreatedAt: func(r *ent.TierTransaction) time.Time { return r.CreatedAt }})
	if err != nil {
		return nil, err
	}
	return &loyaltybase.TierTransactionPage{Data: rows, HasMore: more}, nil
}
