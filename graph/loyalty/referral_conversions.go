package loyalty

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/publication"
)

// Referral conversions: recorded by custom events that carry a referral
// code (sendEvent, events.go) and listed on the customer.

// convertReferral records the referral conversion an event carries: the
// code must be a referral code of a referral program; the conversion
// happens when the campaign's referral_program.conversion_event_type is
// this event's name, at most once per referee and campaign.
func convertReferral(ctx context.Context, c *ent.Client, ev *ent.CustomEvent, referee *ent.Customer, ref *EventReferralInput) error {
	v, err := publication.VoucherByCode(ctx, ref.Code)
	if err != nil {
		return err
	}
	if !v.IsReferralCode || v.CampaignID == nil {
		return invalidReferral("Voucher %s is not a referral code", ref.Code)
	}
	cmp, err := c.Campaign.Get(ctx, *v.CampaignID)
	if err != nil {
		return fmt.Errorf("reading referral campaign: %w", err)
	}
	if cmp.CampaignType != campaign.CampaignTypeREFERRAL_PROGRAM {
		return invalidReferral("Voucher %s is not a code of a referral program", ref.Code)
	}
	if conv, _ := cmp.ReferralProgram["conversion_event_type"].(string); conv != ev.Type {
		return nil // the event is not this program's conversion event
	}
	referrer := v.HolderID
	if ref.ReferrerID != nil && *ref.ReferrerID != "" {
		if referrer != nil && *referrer != *ref.ReferrerID {
			return invalidReferral("Customer %s is not the holder of referral code %s", *ref.ReferrerID, ref.Code)
		}
		r, err := customer.ByIDOrSourceID(ctx, *ref.ReferrerID)
		if err != nil {
			return err
		}
		referrer = &r.ID
	}
	if referrer == nil {
		return invalidReferral("Referral code %s has no referrer: publish it to a customer or give referral.referrer_id", ref.Code)
	}
	if *referrer == referee.ID {
		return invalidReferral("A customer cannot be referred by their own code %s", ref.Code)
	}
	if err := store.LockKey(ctx, "referral:"+cmp.ID+":"+referee.ID); err != nil {
		return err
	}
	done, err := c.ReferralConversion.Query().Where(referralconversion.CampaignID(cmp.ID), referralconversion.RefereeID(referee.ID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("checking referral conversion: %w", err)
	}
	if done {
		return nil // converted already: once per referee and campaign
	}
	err = c.ReferralConversion.Create().SetCampaignID(cmp.ID).SetVoucherID(v.ID).SetReferrerID(*referrer).
		SetRefereeID(referee.ID).SetEventID(ev.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("recording referral conversion: %w", err)
	}
	return nil
}

func invalidReferral(format string, args ...any) error {
	return apperr.New(http.StatusBadRequest, "invalid_referral", "Invalid referral", fmt.Sprintf(format, args...))
}

// ReferralEntry is one referral conversion a customer took part in.
type ReferralEntry struct {
	CampaignID      string    `json:"campaign_id"`
	ReferrerID      string    `json:"referrer_id"`
	RefereeID       string    `json:"referee_id"`
	RelatedObjectID string    `json:"related_object_id"`
	Date            time.Time `json:"date"`
}

// CustomerReferrals summarises a customer's referral conversions, as
// referee or as referrer (nil when there are none).
type CustomerReferrals struct {
	Total     int              `json:"total"`
	Campaigns []*ReferralEntry `json:"campaigns"`
}

// ReferralsOf returns the customer's conversions, newest last.
func ReferralsOf(ctx context.Context, cust *ent.Customer) (*CustomerReferrals, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := c.ReferralConversion.Query().
		Where(referralconversion.Or(referralconversion.RefereeID(cust.ID), referralconversion.ReferrerID(cust.ID))).
		Order(ent.Asc(referralconversion.FieldCreatedAt), ent.Asc(referralconversion.FieldID)).Limit(1000).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading referrals: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	out := &CustomerReferrals{Total: len(rows)}
	for _, r := range rows {
		out.Campaigns = append(out.Campaigns, &ReferralEntry{CampaignID: r.CampaignID, ReferrerID: r.ReferrerID,
			RefereeID: r.RefereeID, RelatedObjectID: r.EventID, Date: r.CreatedAt})
	}
	return out, nil
}
