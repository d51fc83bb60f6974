package loyaltyv1

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// V1 tier changes as customer activities: the points move that changes a
// card's tier records the change as a TierTransaction row in its own
// transaction — one store for both generations (reference §11): a v1 row
// has the card's voucher id (v_…) as member_id and its program's campaign
// id (camp_…) as program_id and tier_structure_id (a v1 program has one
// set of tiers), so the v2 queries, which name lmbr_/lprg_ ids, never see
// it. graph/customer lists the rows as customer.loyalty.tier.* activities
// of the card's holder (GET /v1/customers/{id}/activities, the member
// activity routes and their GraphQL fields).

// tierChangeTypes are the stored types of the tier events (the v2 values).
var tierChangeTypes = map[string]string{
	"customer.loyalty.tier.joined":     "JOINED",
	"customer.loyalty.tier.left":       "LEFT",
	"customer.loyalty.tier.upgraded":   "UPGRADED",
	"customer.loyalty.tier.downgraded": "DOWNGRADED",
	"customer.loyalty.tier.prolonged":  tierProlonged, // tier_daily.go
	// the new expiry of a prolonged tier (tier_daily.go), listed with the
	// expiration_date of TierExpirationDate at the row's time
	"customer.loyalty.tier.expiration.changed": "EXPIRATION_CHANGED",
}

// TierExpirationDate is the expiry (YYYY-MM-DD) the member's tier,
// prolonged at the time at, got (graph/customer lists it with the
// customer.loyalty.tier.expiration.changed activity; set at wiring): the
// same computation as the prolongation's (tierExpiresOn) at that time.
// A member or tier deleted since gives "".
func TierExpirationDate(ctx context.Context, memberID string, tierID *string, at time.Time) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if tierID == nil {
		return "", nil
	}
	v, err := c.Voucher.Get(ctx, memberID)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the member of a tier change: %w", err)
	}
	t, err := c.LoyaltyTier.Get(ctx, *tierID)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the tier of a tier change: %w", err)
	}
	return tierExpiresOn(clock.WithNow(ctx, at), c, v, t)
}

// recordTierChange stores the tier change event of the locked card v, just
// moved from tier before to after (nil: none).
func recordTierChange(ctx context.Context, c *ent.Client, v *ent.Voucher, event string, before, after *ent.LoyaltyTier) error {
	typ, ok := tierChangeTypes[event]
	if !ok {
		return fmt.Errorf("recording tier change: unknown event %q", event)
	}
	balance := int64(0)
	if v.LoyaltyCard != nil {
		balance = v.LoyaltyCard.Balance
	}
	err := c.TierTransaction.Create().SetMemberID(v.ID).SetProgramID(*v.CampaignID).SetTierStructureID(*v.CampaignID).
		SetNillableFromTierID(tierIDOf(before)).SetNillableToTierID(tierIDOf(after)).SetType(typ).SetPoints(balance).
		SetCreatedAt(clock.At(ctx)).Exec(ctx) // the job's clock: settled once per period (tier_daily.go)
	if err != nil {
		return fmt.Errorf("recording %s of card %s: %w", strings.ToLower(typ), v.Code, err)
	}
	return nil
}

// tierIDOf is t's id, nil for no tier.
func tierIDOf(t *ent.LoyaltyTier) *string {
	if t == nil {
		return nil
	}
	return &t.ID
}
