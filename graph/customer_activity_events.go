package graph

import (
	"context"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customevent"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/segmentmember"
)

// The customer activity sources without a campaign of their own (custom
// events, segment entries) and referrals; see customer_activity_sources.go.

// customEventSource: customer.custom_event, one per event sent.
func customEventSource() customerActivitySource {
	query := func(ctx context.Context, f activityFilter) (*ent.CustomEventQuery, error) {
		c, err := client(ctx)
		if err != nil {
			return nil, err
		}
		return c.CustomEvent.Query().Where(customevent.CustomerID(f.customerID)), nil
	}
	return customerActivitySource{
		name: "custom event", prefixes: []string{pulid.PrefixEvent},
		count: func(ctx context.Context, f activityFilter) (int, error) {
			q, err := query(ctx, f)
			if err != nil {
				return 0, err
			}
			return q.Where(f.window(customevent.FieldCreatedAt)).Count(ctx)
		},
		page: func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
			q, err := query(ctx, f)
			if err != nil {
				return nil, err
			}
			evs, err := q.Where(f.window(customevent.FieldCreatedAt), f.after(customevent.FieldCreatedAt, customevent.FieldID)).
				Order(f.order(customevent.FieldCreatedAt, customevent.FieldID)).Limit(n).All(ctx)
			out := make([]*CustomerActivity, len(evs))
			for i, e := range evs {
				out[i] = &CustomerActivity{ID: e.ID, Type: "customer.custom_event", CreatedAt: e.CreatedAt,
					Data: map[string]any{"event": map[string]any{"id": e.ID, "type": e.Type, "metadata": orEmptyMap(e.Metadata),
						"referral_code": e.ReferralCode, "loyalty_code": e.LoyaltyCode, "object": "event"}}}
			}
			return out, err
		},
		find: func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
			q, err := query(ctx, f)
			if err != nil {
				return time.Time{}, false, err
			}
			e, err := q.Where(customevent.ID(id)).Only(ctx)
			if err != nil {
				return found(time.Time{}, err)
			}
			return found(e.CreatedAt, nil)
		},
	}
}

// segmentEntrySource: customer.segment.entered for the segments the
// customer is in now (leaving a segment removes the entry: no
// customer.segment.left).
func segmentEntrySource() customerActivitySource {
	query := func(ctx context.Context, f activityFilter) (*ent.SegmentMemberQuery, error) {
		c, err := client(ctx)
		if err != nil {
			return nil, err
		}
		return c.SegmentMember.Query().Where(segmentmember.CustomerID(f.customerID)), nil
	}
	return customerActivitySource{
		name: "segment", prefixes: []string{pulid.PrefixSegmentMember},
		count: func(ctx context.Context, f activityFilter) (int, error) {
			q, err := query(ctx, f)
			if err != nil {
				return 0, err
			}
			return q.Where(f.window(segmentmember.FieldEnteredAt)).Count(ctx)
		},
		page: func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
			q, err := query(ctx, f)
			if err != nil {
				return nil, err
			}
			members, err := q.Where(f.window(segmentmember.FieldEnteredAt), f.after(segmentmember.FieldEnteredAt, segmentmember.FieldID)).
				Order(f.order(segmentmember.FieldEnteredAt, segmentmember.FieldID)).Limit(n).All(ctx)
			if err != nil || len(members) == 0 {
				return nil, err
			}
			ids := make([]string, len(members))
			for i, m := range members {
				ids[i] = m.SegmentID
			}
			c, err := client(ctx)
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
		},
		find: func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
			q, err := query(ctx, f)
			if err != nil {
				return time.Time{}, false, err
			}
			m, err := q.Where(segmentmember.ID(id)).Only(ctx)
			if err != nil {
				return found(time.Time{}, err)
			}
			return found(m.EnteredAt, nil)
		},
	}
}

// referralSource: customer.referred, when the customer converted as a referee.
func referralSource() customerActivitySource {
	query := func(ctx context.Context, f activityFilter) (*ent.ReferralConversionQuery, error) {
		c, err := client(ctx)
		if err != nil {
			return nil, err
		}
		return c.ReferralConversion.Query().Where(referralconversion.RefereeID(f.customerID),
			f.campaign(referralconversion.FieldCampaignID)), nil
	}
	return customerActivitySource{
		name: "referral", prefixes: []string{pulid.PrefixReferral}, campaignScoped: true,
		count: func(ctx context.Context, f activityFilter) (int, error) {
			q, err := query(ctx, f)
			if err != nil {
				return 0, err
			}
			return q.Where(f.window(referralconversion.FieldCreatedAt)).Count(ctx)
		},
		page: func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
			q, err := query(ctx, f)
			if err != nil {
				return nil, err
			}
			rows, err := q.Where(f.window(referralconversion.FieldCreatedAt), f.after(referralconversion.FieldCreatedAt, referralconversion.FieldID)).
				Order(f.order(referralconversion.FieldCreatedAt, referralconversion.FieldID)).Limit(n).All(ctx)
			out := make([]*CustomerActivity, len(rows))
			for i, r := range rows {
				out[i] = &CustomerActivity{ID: r.ID, Type: "customer.referred", CreatedAt: r.CreatedAt,
					Data: map[string]any{"referral": map[string]any{"campaign_id": r.CampaignID, "voucher_id": r.VoucherID,
						"referrer_id": r.ReferrerID, "event_id": r.EventID}}}
			}
			return out, err
		},
		find: func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
			q, err := query(ctx, f)
			if err != nil {
				return time.Time{}, false, err
			}
			r, err := q.Where(referralconversion.ID(id)).Only(ctx)
			if err != nil {
				return found(time.Time{}, err)
			}
			return found(r.CreatedAt, nil)
		},
	}
}
