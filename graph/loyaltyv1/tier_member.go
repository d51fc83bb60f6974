package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TierExpiration is the expiration object of a tier a member holds
// (loyalties.json LoyaltyTierExpiration): since when the tier is valid
// and the last day it is (YYYY-MM-DD, UTC; nil: as long as what qualifies
// lasts), created_at the recorded entry into the tier (the tier change
// that moved the card there; the computation's moment when none is
// recorded), updated_at its latest prolongation.
type TierExpiration struct {
	CustomerID     string     `json:"customer_id"`
	CampaignID     string     `json:"campaign_id"`
	TierID         string     `json:"tier_id"`
	StartDate      *string    `json:"start_date"`
	ExpirationDate *string    `json:"expiration_date"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
}

// MemberTierHold is a tier a member holds and its expiration.
type MemberTierHold struct {
	Tier       *ent.LoyaltyTier `json:"tier"`
	Expiration *TierExpiration  `json:"expiration"`
}

// MemberTierHolds is the member's current tier with its expiration (GET
// /v1/loyalties/members/{memberId}/tiers): the program's tier whose range
// holds the highest qualifying amount that still counts at the context's
// clock (tier_holds.go); none when no range does.
func MemberTierHolds(ctx context.Context, code string) ([]*MemberTierHold, error) {
	v, err := Member(ctx, nil, code)
	if err != nil {
		return nil, err
	}
	if v.CampaignID == nil || v.HolderID == nil {
		return []*MemberTierHold{}, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	h, err := cardHold(ctx, v)
	if err != nil {
		return nil, err
	}
	t, err := tierFor(ctx, *v.CampaignID, h.best())
	if err != nil || t == nil {
		return []*MemberTierHold{}, err
	}
	at := clock.At(ctx)
	exp, err := tierExpirationOf(ctx, c, h, v, t, at)
	if err != nil {
		return nil, err
	}
	return []*MemberTierHold{{Tier: t, Expiration: exp}}, nil
}

// tierExpirationOf builds the expiration object of card v's hold on t.
func tierExpirationOf(ctx context.Context, c *ent.Client, h tierHold, v *ent.Voucher, t *ent.LoyaltyTier, at time.Time) (*TierExpiration, error) {
	from, until, err := tierWindow(ctx, c, h, v, lowerBound(t), at)
	if err != nil {
		return nil, err
	}
	out := &TierExpiration{CustomerID: *v.HolderID, CampaignID: *v.CampaignID, TierID: t.ID, CreatedAt: at}
	rows := c.TierTransaction.Query().Where(tiertransaction.MemberID(v.ID), tiertransaction.ToTierID(t.ID))
	entered, err := rows.Clone().Where(tiertransaction.TypeNEQ(tierProlonged)).
		Order(ent.Desc(tiertransaction.FieldCreatedAt), ent.Desc(tiertransaction.FieldID)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("reading the card's tier changes: %w", err)
	}
	if entered != nil {
		out.CreatedAt = entered.CreatedAt
		prolonged, err := rows.Where(tiertransaction.TypeEQ(tierProlonged), tiertransaction.CreatedAtGT(entered.CreatedAt)).
			Order(ent.Desc(tiertransaction.FieldCreatedAt), ent.Desc(tiertransaction.FieldID)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, fmt.Errorf("reading the card's tier changes: %w", err)
		}
		if prolonged != nil {
			out.UpdatedAt = &prolonged.CreatedAt
		}
	}
	// The computed start (a period's), or the recorded entry when later
	// (a tier reached within the period it counts in).
	start := from
	if start == nil || (entered != nil && entered.CreatedAt.After(*start) && !entered.CreatedAt.After(at)) {
		start = &out.CreatedAt
	}
	out.StartDate = dateOf(start)
	out.ExpirationDate = dateOf(until)
	return out, nil
}

// lowerBound is a tier's lower bound (an open one counts lowest).
func lowerBound(t *ent.LoyaltyTier) int64 { return from(t) }

// dateOf is t's UTC day (nil for nil).
func dateOf(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(time.DateOnly)
	return &s
}

// tierExpiresOn is the last day (YYYY-MM-DD) the locked card v holds t at
// the context's clock, "" when its hold has no end yet.
func tierExpiresOn(ctx context.Context, c *ent.Client, v *ent.Voucher, t *ent.LoyaltyTier) (string, error) {
	h, err := cardHold(ctx, v)
	if err != nil {
		return "", err
	}
	_, until, err := tierWindow(ctx, c, h, v, lowerBound(t), clock.At(ctx))
	if err != nil || until == nil {
		return "", err
	}
	return until.UTC().Format(time.DateOnly), nil
}
