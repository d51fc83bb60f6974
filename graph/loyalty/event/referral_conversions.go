package event

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
// code (sendEvent, events.go) or by the redemption of a referral code
// (graph/reward/referral_conversions.go), and listed on the customer.

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
	if !convertsOn(cmp.ReferralProgram, ev.Type) {
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
	_, err = RecordReferralConversion(ctx, ReferralConversionInput{CampaignID: cmp.ID, VoucherID: v.ID,
		ReferrerID: *referrer, RefereeID: referee.ID, RelatedID: ev.ID})
	return err
}

// convertsOn reports whether a referral program converts on the custom
// event named name: its conversion_event_type is "custom_event" and its
// custom_event names that event (reference §7.1), or, as stored before,
// conversion_event_type is the event's name itself.
func convertsOn(program map[string]any, name string) bool {
	conv, _ := program["conversion_event_type"].(string)
	if conv == name {
		return true
	}
	if conv != "custom_event" {
		return false
	}
	ce, _ := program["custom_event"].(map[string]any)
	n, _ := ce["name"].(string)
	return n == name
}

// ReferralConversionInput is a conversion to record: the referral
// program, the code, the referrer, the referee and what converted (the
// custom event or the redemption).
type ReferralConversionInput struct {
	CampaignID, VoucherID, ReferrerID, RefereeID, RelatedID string
}

// OnReferralConverted rewards the referrer of a new conversion, in its
// transaction (graph/reward.RewardReferrer, set in graph/wiring.go).
var OnReferralConverted func(ctx context.Context, conv *ent.ReferralConversion) error

// RecordReferralConversion records a referral conversion at most once per
// referee and campaign, and rewards its referrer (OnReferralConverted);
// nil when the referee converted already. It takes advisory locks on the
// referee's key and then the referrer's (always in that order), so two
// processes converting the same referee record one conversion, and the
// referrer's conversions are counted one at a time (tiers of "at least N
// referees" fire once).
func RecordReferralConversion(ctx context.Context, in ReferralConversionInput) (*ent.ReferralConversion, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "referral:"+in.CampaignID+":"+in.RefereeID); err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "referrer:"+in.CampaignID+":"+in.ReferrerID); err != nil {
		return nil, err
	}
	prev, err := c.ReferralConversion.Query().Where(referralconversion.CampaignID(in.CampaignID), referralconversion.RefereeID(in.RefereeID)).Only(ctx)
	switch {
	case err == nil && prev.RolledBackAt == nil:
		return nil, nil // converted already: once per referee and campaign
	case err == nil:
		return nil, reconvert(ctx, c, prev, in) // referral_undo.go
	case !ent.IsNotFound(err):
		return nil, fmt.Errorf("checking referral conversion: %w", err)
	}
	conv, err := c.ReferralConversion.Create().SetCampaignID(in.CampaignID).SetVoucherID(in.VoucherID).SetReferrerID(in.ReferrerID).
		SetRefereeID(in.RefereeID).SetEventID(in.RelatedID).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("recording referral conversion: %w", err)
	}
	if OnReferralConverted != nil {
		if err := OnReferralConverted(ctx, conv); err != nil {
			return nil, err
		}
	}
	return conv, nil
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
		Where(referralconversion.Or(referralconversion.RefereeID(cust.ID), referralconversion.ReferrerID(cust.ID)),
			referralconversion.RolledBackAtIsNil()).
		Order(ent.Asc(referralconversion.FieldCreatedAt), ent.Asc(referralconversion.FieldID)).Limit(maxReferrals).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading referrals: %w", err)
	}
	return referralsFrom(cust.ID, rows), nil
}

// maxReferrals is how many conversions a customer's referrals show.
const maxReferrals = 1000

// ReferralsOfMany is ReferralsOf for a page of customers (GET
// /v1/customers): one statement for the whole page instead of one per
// customer, keyed by customer ID (customers without conversions are
// absent). When the page's customers took part in more conversions than
// maxReferrals each on average, the statement stops and each customer is
// read alone, so that every customer still shows its first maxReferrals.
func ReferralsOfMany(ctx context.Context, custs []*ent.Customer) (map[string]*CustomerReferrals, error) {
	out := map[string]*CustomerReferrals{}
	if len(custs) == 0 {
		return out, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ids := customer.IDs(custs)
	limit := maxReferrals * len(custs)
	rows, err := c.ReferralConversion.Query().
		Where(referralconversion.Or(referralconversion.RefereeIDIn(ids...), referralconversion.ReferrerIDIn(ids...)),
			referralconversion.RolledBackAtIsNil()).
		Order(ent.Asc(referralconversion.FieldCreatedAt), ent.Asc(referralconversion.FieldID)).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading referrals: %w", err)
	}
	if len(rows) > limit { // some customer may have more than it shows: one by one
		for _, cust := range custs {
			r, err := ReferralsOf(ctx, cust)
			if err != nil {
				return nil, err
			}
			if r != nil {
				out[cust.ID] = r
			}
		}
		return out, nil
	}
	for _, id := range ids {
		if r := referralsFrom(id, rows); r != nil {
			out[id] = r
		}
	}
	return out, nil
}

// referralsFrom keeps the first maxReferrals of rows (in order) that the
// customer took part in; nil when none.
func referralsFrom(customerID string, rows []*ent.ReferralConversion) *CustomerReferrals {
	var out *CustomerReferrals
	for _, r := range rows {
		if r.RefereeID != customerID && r.ReferrerID != customerID {
			continue
		}
		if out == nil {
			out = &CustomerReferrals{}
		}
		if len(out.Campaigns) == maxReferrals {
			break
		}
		out.Campaigns = append(out.Campaigns, &ReferralEntry{CampaignID: r.CampaignID, ReferrerID: r.ReferrerID,
			RefereeID: r.RefereeID, RelatedObjectID: r.EventID, Date: r.CreatedAt})
	}
	if out != nil {
		out.Total = len(out.Campaigns)
	}
	return out
}
