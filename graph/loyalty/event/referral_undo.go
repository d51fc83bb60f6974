package event

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Undoing a referral conversion (reference §7.3 step 5, U16): rolling back
// the redemption that converted a referee undoes the conversion — it
// stops counting in the customers' referrals and activities and the
// referee may convert again — while what the conversion issued (the
// referee reward, the referrer's tier rewards) stays where it went, as
// the reference suggests. Its row is kept, marked rolled_back_at, so the
// rewards are issued once per referee and program: a later conversion of
// the same referee (a new redemption, through any code of the program)
// restores the conversion and issues nothing again.

// UndoReferralConversion undoes the conversion the redemption
// redemptionID made, if any, in the rollback's transaction, exactly once
// (a conditional update under the referee's lock, the lock a conversion
// takes first).
func UndoReferralConversion(ctx context.Context, redemptionID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	conv, err := c.ReferralConversion.Query().Where(referralconversion.EventID(redemptionID), referralconversion.RolledBackAtIsNil()).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the redemption's referral conversion: %w", err)
	}
	if err := store.LockKey(ctx, "referral:"+conv.CampaignID+":"+conv.RefereeID); err != nil {
		return err
	}
	err = c.ReferralConversion.Update().Where(referralconversion.ID(conv.ID), referralconversion.EventID(redemptionID),
		referralconversion.RolledBackAtIsNil()).SetRolledBackAt(clock.At(ctx)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("undoing referral conversion %s: %w", conv.ID, err)
	}
	return nil
}

// reconvert restores a conversion undone by a rollback for a new
// conversion of the same referee (held under the referee's lock): the row
// takes the new code, referrer and event; no rewards are issued again.
func reconvert(ctx context.Context, c *ent.Client, prev *ent.ReferralConversion, in ReferralConversionInput) error {
	err := c.ReferralConversion.UpdateOne(prev).SetVoucherID(in.VoucherID).SetReferrerID(in.ReferrerID).
		SetEventID(in.RelatedID).ClearRolledBackAt().Exec(ctx)
	if err != nil {
		return fmt.Errorf("restoring referral conversion %s: %w", prev.ID, err)
	}
	return nil
}
