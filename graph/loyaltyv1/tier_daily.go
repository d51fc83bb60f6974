package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/loyaltytier"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Tier expiry and prolongation (reference §3.5 step 3, §5): with
// qualification_type POINTS_IN_PERIOD a card's tier depends on the clock —
// when a qualification period ends, the points that placed it may no
// longer count. The daily job (tierPeriodsDue) settles each card whose
// last recorded tier change (its latest TierTransaction row, written by
// every tier change) is older than the current period's start and left it
// in a tier: under the card's lock it computes the tier the card holds
// now and
//   - if it is the recorded tier, the tier is **prolonged**: a PROLONGED
//     row (a customer.loyalty.tier.prolonged activity), the webhook events
//     customer.loyalty.tier.prolonged {customer, campaign, voucher,
//     loyalty_tier, created_at} and customer.loyalty.tier.expiration.changed
//     {…, expiration_date: the last day of the current period}, and the
//     program's prolonged tier-event rules' accruals;
//   - otherwise the recorded tier **expired**: the change (left, or
//     downgraded, …) is recorded, announced and fires its rules exactly as
//     a points move's change does (fireTierChange).
// Either writes a row dated now, inside the current period, so the card is
// settled once per period: a second worker (or process) waits for the
// card's lock and then finds the new row. A period boundary only ever
// lowers what qualifies, so a card with no tier recorded cannot gain one
// by the clock and is not read.

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
		months := periodMonths(cmp.LoyaltyTiersExpiration["qualification_period"])
		if cmp.LoyaltyTiersExpiration["qualification_type"] != "POINTS_IN_PERIOD" || months == 0 {
			continue // tiers by balance change only with the balance
		}
		start := periodStart(months, now)
		all, err := c.TierTransaction.Query().Where(tiertransaction.ProgramID(id)).Unique(true).
			Select(tiertransaction.FieldMemberID).Strings(sys)
		if err != nil {
			return done, fmt.Errorf("daily points job: reading tier holders: %w", err)
		}
		recent, err := c.TierTransaction.Query().Where(tiertransaction.ProgramID(id), tiertransaction.CreatedAtGTE(start)).
			Unique(true).Select(tiertransaction.FieldMemberID).Strings(sys)
		if err != nil {
			return done, fmt.Errorf("daily points job: reading settled tier holders: %w", err)
		}
		settled := map[string]bool{}
		for _, m := range recent {
			settled[m] = true
		}
		for _, cardID := range all {
			if settled[cardID] {
				continue
			}
			// Without a lock first: a card whose last change left it in no
			// tier has nothing to settle (settleCardTier re-reads it locked).
			last, err := c.TierTransaction.Query().Where(tiertransaction.MemberID(cardID)).
				Order(ent.Desc(tiertransaction.FieldCreatedAt), ent.Desc(tiertransaction.FieldID)).First(sys)
			if err != nil {
				return done, fmt.Errorf("daily points job: reading a card's last tier change: %w", err)
			}
			if last.ToTierID == nil {
				continue
			}
			pctx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: cmp.ProjectID})
			var moved bool
			err = store.InTx(pctx, func(ctx context.Context) error {
				moved, err = settleCardTier(ctx, cardID, start)
				return err
			})
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("daily points job: tier of card %s: %w", cardID, err)
			}
			if moved {
				done++
			}
		}
	}
	return done, firstErr
}

// settleCardTier settles the card's tier at the period that started at
// start, under its lock (see above); false when there was nothing to do.
func settleCardTier(ctx context.Context, cardID string, start time.Time) (bool, error) {
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
	last, err := c.TierTransaction.Query().Where(tiertransaction.MemberID(cardID)).
		Order(ent.Desc(tiertransaction.FieldCreatedAt), ent.Desc(tiertransaction.FieldID)).First(ctx)
	if err != nil {
		return false, fmt.Errorf("reading the card's last tier change: %w", err)
	}
	if !last.CreatedAt.Before(start) || last.ToTierID == nil || v.CampaignID == nil || v.HolderID == nil {
		return false, nil // settled meanwhile, or no tier to keep
	}
	held, err := c.LoyaltyTier.Get(ctx, *last.ToTierID)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading the card's tier: %w", err)
	}
	now, err := cardTier(ctx, v)
	if err != nil {
		return false, err
	}
	if now == nil || now.ID != held.ID {
		return true, fireTierChange(ctx, c, v, held, now) // the tier expired
	}
	return true, prolongTier(ctx, c, v, held)
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
	exp, err := tierExpiration(ctx, c, *v.CampaignID)
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

// tierExpiration is the last day (YYYY-MM-DD, UTC) of the current
// qualification period of the program: a prolonged tier is held by the
// last period's points, which count through this one.
func tierExpiration(ctx context.Context, c *ent.Client, programID string) (string, error) {
	cmp, err := points.Program(ctx, c, programID)
	if err != nil {
		return "", fmt.Errorf("reading the card's program: %w", err)
	}
	months := periodMonths(cmp.LoyaltyTiersExpiration["qualification_period"])
	if months == 0 {
		return "", nil
	}
	end := periodStart(months, clock.At(ctx)).AddDate(0, months, -1)
	return end.Format(time.DateOnly), nil
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
