package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/graph/loyalty/event"
)

// convertReferral records the referral conversion a redemption of a
// referral code makes (reference §7.3 step 1): the code's program converts
// on "redemption", the code has a referrer (its holder) and the redeeming
// customer is someone else. The conversion is recorded once per referee
// and program, and its referrer rewarded, in the redemption's
// transaction (loyalty.RecordReferralConversion). A one-statement
// redemption has no customer, so it never converts.
func (w *writer) convertReferral(ctx context.Context, s *redeemableState, redemptionID string) error {
	v, cust := s.voucher, w.e.customer
	if !v.IsReferralCode || v.CampaignID == nil || v.HolderID == nil || cust == nil || cust.ID == *v.HolderID {
		return nil
	}
	// Read whole: the voucher look-up loads only the campaign columns
	// that redemption checks need.
	cmp, err := w.c.Campaign.Get(ctx, *v.CampaignID)
	if err != nil {
		return fmt.Errorf("reading referral program: %w", err)
	}
	if conv, _ := cmp.ReferralProgram["conversion_event_type"].(string); conv != "redemption" {
		return nil
	}
	_, err = event.RecordReferralConversion(ctx, event.ReferralConversionInput{CampaignID: cmp.ID, VoucherID: v.ID,
		ReferrerID: *v.HolderID, RefereeID: cust.ID, RelatedID: redemptionID})
	return err
}
