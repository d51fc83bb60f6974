package customer

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customevent"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The customer activity sources without a campaign of their own (custom
// events, segment entries) and referrals; see activity_sources.go.

// customEventSource: customer.custom_event, one per event sent.
func customEventSource() customerActivitySource {
	return tableSource(customerActivitySource{name: "custom event", prefixes: []string{pulid.PrefixEvent},
		types: []string{"customer.custom_event"}},
		customevent.FieldCreatedAt, customevent.FieldID,
		func(c *ent.Client, f activityFilter) *ent.CustomEventQuery {
			return c.CustomEvent.Query().Where(customevent.CustomerID(f.customerID))
		}, eachRow(func(e *ent.CustomEvent) *CustomerActivity {
			return &CustomerActivity{ID: e.ID, Type: "customer.custom_event", CreatedAt: e.CreatedAt,
				Data: map[string]any{"event": map[string]any{"id": e.ID, "type": e.Type, "metadata": shape.OrEmptyMap(e.Metadata),
					"referral_code": e.ReferralCode, "loyalty_code": e.LoyaltyCode, "object": "event"}}}
		}))
}

// segmentEntrySource: customer.segment.entered for the segments the
// customer is in now (leaving a segment removes the entry: no
// customer.segment.left).
func segmentEntrySource() customerActivitySource {
	return tableSource(customerActivitySource{name: "segment", prefixes: []string{pulid.PrefixSegmentMember},
		types: []string{"customer.segment.entered"}},
		segmentmember.FieldEnteredAt, segmentmember.FieldID,
		func(c *ent.Client, f activityFilter) *ent.SegmentMemberQuery {
			return c.SegmentMember.Query().Where(segmentmember.CustomerID(f.customerID))
		}, segmentEntries)
}

// segmentEntries are the activities of segment memberships, with the
// Segments' names.
func segmentEntries(ctx context.Context, members []*ent.SegmentMember) ([]*CustomerActivity, error) {
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.SegmentID
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	segs, err := c.Segment.Query().Where(segment.IDIn(ids...)).All(ctx)
	names := map[string]string{}
	for _, s := range segs {
		names[s.ID] = s.Name
	}
	out := make([]*CustomerActivity, len(members))
	for i, m := range members {
		out[i] = &CustomerActivity{ID: m.ID, Type: "customer.segment.entered", CreatedAt: m.EnteredAt,
			Data: map[string]any{"segment": map[string]any{"id": m.SegmentID, "name": names[m.SegmentID], "object": "segment"}}}
	}
	return out, err
}

// referralSource: customer.referred, when the customer converted as a referee.
func referralSource() customerActivitySource {
	return tableSource(customerActivitySource{name: "referral", prefixes: []string{pulid.PrefixReferral}, campaignScoped: true,
		types: []string{"customer.referred"}},
		referralconversion.FieldCreatedAt, referralconversion.FieldID,
		func(c *ent.Client, f activityFilter) *ent.ReferralConversionQuery {
			return c.ReferralConversion.Query().Where(referralconversion.RefereeID(f.customerID), referralconversion.RolledBackAtIsNil(),
				f.campaign(referralconversion.FieldCampaignID))
		}, eachRow(func(r *ent.ReferralConversion) *CustomerActivity {
			return &CustomerActivity{ID: r.ID, Type: "customer.referred", CreatedAt: r.CreatedAt,
				Data: map[string]any{"referral": map[string]any{"campaign_id": r.CampaignID, "voucher_id": r.VoucherID,
					"referrer_id": r.ReferrerID, "event_id": r.EventID}}}
		}))
}
