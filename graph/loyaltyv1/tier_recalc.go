package loyaltyv1

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/job"
)

// options.recalculate_tiers on a program update (reference §5: "re-evaluates
// tiers with upgrades only"): each member's card is compared, under its
// lock, with the tier its latest tier change recorded; a card that now
// holds a higher tier (or a tier, having none) has the change recorded,
// announced and its tier-event rules fired, exactly as a points move's
// change (fireTierChange). A lower tier is not recorded here (the next
// points move or the daily job records it; the tier shown is always the
// computed one). A program of at most RecalculateInline members is
// recalculated in the update's own transaction; a larger one by a job
// (type LOYALTY.TIERS_RECALCULATE, TierRecalcBatch cards per committed
// transaction). Either way a second recalculation — another update, a
// second worker — finds each card's change recorded and records nothing.

// JobTiersRecalculate is the type of the tier recalculation job.
const JobTiersRecalculate = "LOYALTY.TIERS_RECALCULATE"

// RecalculateInline is the largest program (in members) recalculated in
// the update's transaction; TierRecalcBatch the cards per job batch.
const (
	RecalculateInline = 50
	TierRecalcBatch   = 100
)

// JobHandlers are the v1 loyalty area's job handlers by type, registered
// at wiring (graph/wiring.go).
func JobHandlers() map[string]job.Handler {
	return map[string]job.Handler{JobTiersRecalculate: {Run: runTierRecalc,
		Message: func(j *ent.AsyncAction) (string, string) {
			return fmt.Sprintf("%d member(s) recalculated", j.Done), "recalculated"
		}}}
}

// members is the query of the program's members' cards, by id.
func members(c *ent.Client, programID string) *ent.VoucherQuery {
	return c.Voucher.Query().Where(voucher.CampaignID(programID), voucher.HolderIDNotNil()).Order(ent.Asc(voucher.FieldID))
}

// recalculateTiers re-evaluates the tiers of the members of program cmp
// (just updated), in this transaction or by a job.
func recalculateTiers(ctx context.Context, cmp *ent.Campaign) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	n, err := members(c, cmp.ID).Count(ctx)
	if err != nil {
		return fmt.Errorf("counting members: %w", err)
	}
	if n > RecalculateInline {
		_, err := job.Schedule(ctx, JobTiersRecalculate, &cmp.ID, []string{}, n)
		return err
	}
	ids, err := members(c, cmp.ID).IDs(ctx)
	if err != nil {
		return fmt.Errorf("listing members: %w", err)
	}
	for _, id := range ids {
		if err := recalculateCardTier(ctx, c, cmp, id); err != nil {
			return err
		}
	}
	return nil
}

// runTierRecalc recalculates the job's program's members, a batch per
// committed transaction, resuming after the cards its done count covers.
func runTierRecalc(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	if j.CampaignID == nil {
		return nil
	}
	for done := j.Done; ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
			c := ent.FromContext(ctx)
			cmp, err := c.Campaign.Get(ctx, *j.CampaignID)
			if ent.IsNotFound(err) {
				return 0, nil // deleted meanwhile
			}
			if err != nil {
				return 0, fmt.Errorf("reading program: %w", err)
			}
			ids, err := members(c, cmp.ID).Offset(done).Limit(TierRecalcBatch).IDs(ctx)
			if err != nil {
				return 0, fmt.Errorf("listing members: %w", err)
			}
			for _, id := range ids {
				if err := recalculateCardTier(ctx, c, cmp, id); err != nil {
					return 0, err
				}
			}
			return len(ids), nil
		})
		if err != nil {
			return err
		}
		done += n
		if n < TierRecalcBatch {
			return nil
		}
	}
}

// recalculateCardTier records the card's upgrade (or join) under the
// settings of cmp, if it holds a higher tier than recorded.
func recalculateCardTier(ctx context.Context, c *ent.Client, cmp *ent.Campaign, cardID string) error {
	v, err := campaign.LockVoucher(ctx, c, cardID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if v.CampaignID == nil || v.HolderID == nil {
		return nil
	}
	last, err := lastTierRow(ctx, c, cardID)
	if err != nil {
		return err
	}
	var recorded *ent.LoyaltyTier
	if id := recordedTier(last); id != "" {
		if recorded, err = c.LoyaltyTier.Get(ctx, id); err != nil && !ent.IsNotFound(err) {
			return fmt.Errorf("reading the card's tier: %w", err)
		}
	}
	h, err := holdAt(ctx, c, v, cmp, clock.At(ctx))
	if err != nil {
		return err
	}
	held, err := tierFor(ctx, cmp.ID, h.best())
	if err != nil || held == nil {
		return err
	}
	if recorded != nil && (held.ID == recorded.ID || from(held) <= from(recorded)) {
		return nil // the same or lower: upgrades only
	}
	return fireTierChange(ctx, c, v, recorded, held)
}
