package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
)

// Which cards the daily tier step looks at, and the unlocked look that
// decides whether one is locked and settled (tier_daily.go).

// tierCandidates are the cards of program id whose tier the clock may have
// changed (see above), and among them those that may have gained one.
func tierCandidates(sys context.Context, c *ent.Client, id string, r tierRules, now time.Time) ([]string, map[string]bool, error) {
	all, err := c.TierTransaction.Query().Where(tiertransaction.ProgramID(id)).Unique(true).
		Select(tiertransaction.FieldMemberID).Strings(sys)
	if err != nil {
		return nil, nil, fmt.Errorf("daily points job: reading tier holders: %w", err)
	}
	settled := map[string]bool{}
	midPeriod := r.months == 0 || r.extend != (isoPeriod{}) || r.round != nil
	if !midPeriod {
		recent, err := c.TierTransaction.Query().Where(tiertransaction.ProgramID(id),
			tiertransaction.CreatedAtGTE(periodStart(r.months, now))).Unique(true).Select(tiertransaction.FieldMemberID).Strings(sys)
		if err != nil {
			return nil, nil, fmt.Errorf("daily points job: reading settled tier holders: %w", err)
		}
		for _, m := range recent {
			settled[m] = true
		}
	}
	raising := map[string]bool{}
	if r.shift > 0 {
		start := periodStart(r.months, now)
		earned, err := c.VoucherTransaction.Query().Where(vouchertransaction.CampaignID(id), vouchertransaction.TypeIn(earnedTypes...),
			vouchertransaction.CreatedAtGTE(start.AddDate(0, -r.months, 0)), vouchertransaction.CreatedAtLT(start)).
			Unique(true).Select(vouchertransaction.FieldVoucherID).Strings(sys)
		if err != nil {
			return nil, nil, fmt.Errorf("daily points job: reading last period's earners: %w", err)
		}
		for _, v := range earned {
			raising[v] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, list := range [][]string{all, keys(raising)} {
		for _, m := range list {
			if !seen[m] && !settled[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out, raising, nil
}

// keys are m's keys.
func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// tierSettleDue says, without a lock, whether the card may need settling
// at now: its recorded tier differs from the one it holds, or a new
// period began since it was recorded.
func tierSettleDue(ctx context.Context, c *ent.Client, cardID string, r tierRules, now time.Time, raising bool) (bool, error) {
	last, err := lastTierRow(ctx, c, cardID)
	if err != nil {
		return false, err
	}
	if (last == nil || last.ToTierID == nil) && !raising {
		return false, nil // the clock alone does not raise it
	}
	if last != nil && last.ToTierID != nil && r.months > 0 && last.CreatedAt.Before(periodStart(r.months, now)) {
		return true, nil // a prolongation or a change
	}
	v, err := c.Voucher.Get(clock.WithNow(ctx, now), cardID)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading the card: %w", err)
	}
	held, err := cardTier(clock.WithNow(ctx, now), v)
	if err != nil {
		return false, err
	}
	return tierIDValue(held) != recordedTier(last), nil
}

// lastTierRow is the card's latest tier change (nil: none).
func lastTierRow(ctx context.Context, c *ent.Client, cardID string) (*ent.TierTransaction, error) {
	last, err := c.TierTransaction.Query().Where(tiertransaction.MemberID(cardID)).
		Order(ent.Desc(tiertransaction.FieldCreatedAt), ent.Desc(tiertransaction.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the card's last tier change: %w", err)
	}
	return last, nil
}

// recordedTier is the tier a row left the card in ("" for none or no row).
func recordedTier(last *ent.TierTransaction) string {
	if last == nil || last.ToTierID == nil {
		return ""
	}
	return *last.ToTierID
}

// tierIDValue is t's id, "" for no tier.
func tierIDValue(t *ent.LoyaltyTier) string {
	if t == nil {
		return ""
	}
	return t.ID
}
