package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/loyaltytier"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Tier expiry and prolongation (reference §3.5 step 3, §5): when a
// card's tier depends on the clock (tierRules.clockBound: points earned in
// a period, or a balance tier kept after a drop), the tier it holds may
// change with no points move — a qualification period ends, a NEXT_PERIOD
// program's points start counting, an extension runs out. The daily job
// (tierPeriodsDue) compares, for each card that may have changed, the tier
// its latest TierTransaction row (written by every tier change) recorded
// with the tier it holds now (tier_holds.go); under the card's lock:
//   - a different tier is a change: recorded, announced and firing its
//     rules exactly as a points move's change (fireTierChange) — a tier
//     that expired (left, downgraded) or one a NEXT_PERIOD program's
//     points reached (joined, upgraded);
//   - the same tier, when a new qualification period began since the row,
//     is **prolonged**: a PROLONGED row (a customer.loyalty.tier.prolonged
//     activity), the webhook events customer.loyalty.tier.prolonged
//     {customer, campaign, voucher, loyalty_tier, created_at} and
//     customer.loyalty.tier.expiration.changed {…, expiration_date: the
//     last day the tier is now held}, and the program's prolonged
//     tier-event rules' accruals.
// Either writes a row dated now, so a second worker (or process), waiting
// on the card's lock, then finds nothing to do.
// Which cards are read: those with a tier history in the program (without
// a row this period, unless the tier can end mid-period: an extend, a
// rounding or a balance window), and with NEXT_PERIOD those that earned
// points in the previous period. A card whose last row left it in no tier
// is read only in the latter case: otherwise the clock alone can only
// lower its tier. Each candidate's tier is computed before any lock; only
// a card to change or prolong is locked.

// tierProlonged is the stored type of a prolongation.
const tierProlonged = "PROLONGED"

// tierPeriodsDue is the daily job's tier step; it reports how many cards it
// settled (prolonged or moved).
func tierPeriodsDue(ctx context.Context, now time.Time) (int, error) {
	sys := viewer.NewSystemContext(ctx)
	c := ent.FromContext(ctx)
	var programs []string
	if err := c.LoyaltyTier.Query().Unique(true).Select(loyaltytier.FieldCampaignID).Scan(sys, &programs); err != nil {
		return 0, fmt.Errorf("daily points job: reading tiered programs: %w", err)
	}
	done := 0
	var firstErr error
	for _, id := range programs {
		cmp, err := c.Campaign.Get(sys, id)
		if ent.IsNotFound(err) {
			continue
		}
		if err != nil {
			return done, fmt.Errorf("daily points job: reading program %s: %w", id, err)
		}
		r := parseTierRules(cmp.LoyaltyTiersExpiration)
		if !r.clockBound() {
			continue // tiers by balance change only with the balance
		}
		cards, raising, err := tierCandidates(sys, c, id, r, now)
		if err != nil {
			return done, err
		}
		pctx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: cmp.ProjectID})
		for _, cardID := range cards {
			due, err := tierSettleDue(pctx, c, cardID, r, now, raising[cardID])
			if err == nil && due {
				var moved bool
				err = store.InTx(pctx, func(ctx context.Context) error {
					moved, err = settleCardTier(ctx, cardID, r, now)
					return err
				})
				if moved {
					done++
				}
			}
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("daily points job: tier of card %s: %w", cardID, err)
			}
		}
	}
	return done, firstErr
}

// settleCardTier settles the card's tier at now under its lock (see
// above); false when there was nothing to do.
func settleCardTier(ctx context.Context, cardID string, r tierRules, now time.Time) (bool, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return false, err
	}
	v, err := campaign.LockVoucher(ctx, c, cardID)
	if ent.IsNotFound(err) {
		return false, nil // deleted with its program
	}
	if err != nil {
		return false, err
	}
	if v.CampaignID == nil || v.HolderID == nil {
		return false, nil
	}
	last, err := lastTierRow(ctx, c, cardID)
	if err != nil {
		return false, err
	}
	var held *ent.LoyaltyTier
	if id := recordedTier(last); id != "" {
		if held, err = c.LoyaltyTier.Get(ctx, id); err != nil && !ent.IsNotFound(err) {
			return false, fmt.Errorf("reading the card's tier: %w", err)
		}
	}
	current, err := cardTier(ctx, v)
	if err != nil {
		return false, err
	}
	if tierIDValue(current) != tierIDValue(held) {
		return true, fireTierChange(ctx, c, v, held, current) // expired, or reached
	}
	if held != nil && r.months > 0 && last.CreatedAt.Before(periodStart(r.months, now)) {
		return true, prolongTier(ctx, c, v, held)
	}
	return false, nil // settled meanwhile
}

// prolongTier records, announces and rewards the prolongation of the
// locked card v's tier t.
func prolongTier(ctx context.Context, c *ent.Client, v *ent.Voucher, t *ent.LoyaltyTier) error {
	const event = "customer.loyalty.tier.prolonged"
	if err := recordTierChange(ctx, c, v, event, t, t); err != nil {
		return err
	}
	base := func() map[string]any {
		return map[string]any{
			"customer":     map[string]any{"id": *v.HolderID, "object": "customer"},
			"campaign":     map[string]any{"id": *v.CampaignID, "object": "campaign"},
			"voucher":      map[string]any{"id": v.ID, "code": v.Code, "object": "voucher"},
			"loyalty_tier": tierRef(t),
			"created_at":   clock.Format(clock.At(ctx)),
		}
	}
	if err := webhook.Emit(ctx, event, "customer", *v.HolderID, base()); err != nil {
		return err
	}
	exp, err := tierExpiresOn(ctx, c, v, t) // tier_member.go
	if err != nil {
		return err
	}
	if exp != "" {
		data := base()
		data["expiration_date"] = exp
		if err := webhook.Emit(ctx, "customer.loyalty.tier.expiration.changed", "customer", *v.HolderID, data); err != nil {
			return err
		}
		// and as the holder's activity (tier_activities.go)
		if err := recordTierChange(ctx, c, v, "customer.loyalty.tier.expiration.changed", t, t); err != nil {
			return err
		}
	}
	return fireTierRules(ctx, c, v, event, t)
}

// fireTierRules books the accruals of the program's active rules of the
// tier event whose loyalty_tier.id is subject's or __ANY__ (FIXED, or
// CUSTOMER_METADATA by the holder's metadata); they fire no tier rules
// themselves.
func fireTierRules(ctx context.Context, c *ent.Client, v *ent.Voucher, event string, subject *ent.LoyaltyTier) error {
	rules, err := firingRules(ctx, campaignearningrule.Event(event), func(r *ent.CampaignEarningRule) bool {
		id, _ := r.LoyaltyTier["id"].(string)
		return r.CampaignID == *v.CampaignID && (id == subject.ID || id == "__ANY__")
	})
	if err != nil || len(rules) == 0 {
		return err
	}
	cust, err := c.Customer.Get(ctx, *v.HolderID)
	if err != nil {
		return fmt.Errorf("tier event: reading holder: %w", err)
	}
	var gate ruleGate // earning_validation.go
	facts := earningFacts{customerID: cust.ID, customerMetadata: cust.Metadata}
	for _, fr := range rules {
		points := fr.formula.points(facts)
		if points <= 0 {
			continue
		}
		if ok, err := gate.passes(ctx, fr.rule, facts); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		details := map[string]any{"earning_rule": earningRuleDetails(fr.rule), "event": eventDetails(event),
			"loyalty_tier": map[string]any{"id": subject.ID, "name": subject.Name}}
		if _, _, err := book(ctx, c, v, move{typ: vouchertransaction.TypePOINTS_ACCRUAL, points: points, details: details,
			source: "Automation", operation: "AUTOMATIC", tierRule: true}); err != nil {
			return err
		}
	}
	return nil
}
