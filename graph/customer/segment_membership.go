package customer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/customereventcount"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/segmentfilter"
)

// Membership of auto-update segments: filling a new segment and
// re-evaluating a customer after an event or a profile change
// (refreshSegments in customers.go, sendEvent in events.go). Whether a
// customer matches is decided by graph/segmentfilter.

// filterCustomer is what the segment filter language sees of a customer;
// counts are the customer's event counters.
func filterCustomer(c *ent.Customer, counts map[string]int) segmentfilter.Customer {
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	return segmentfilter.Customer{
		ID: c.ID, Name: s(c.Name), Email: s(c.Email), SourceID: s(c.SourceID), Phone: s(c.Phone),
		Description: s(c.Description), Birthday: s(c.Birthday), Metadata: c.Metadata, EventCounts: counts,
	}
}

// fillSegment adds every matching customer of the project to a new
// auto-update segment, reading customers in keyset pages.
func fillSegment(ctx context.Context, c *ent.Client, seg *ent.Segment, filter *segmentfilter.Filter, now time.Time) error {
	const page = 500
	after := ""
	for {
		q := c.Customer.Query().Order(ent.Asc(customer.FieldID)).Limit(page)
		if after != "" {
			q.Where(customer.IDGT(after))
		}
		custs, err := q.All(ctx)
		if err != nil {
			return fmt.Errorf("reading customers: %w", err)
		}
		if len(custs) == 0 {
			return nil
		}
		ids := make([]string, len(custs))
		for i, cu := range custs {
			ids[i] = cu.ID
		}
		rows, err := c.CustomerEventCount.Query().Where(customereventcount.CustomerIDIn(ids...)).All(ctx)
		if err != nil {
			return fmt.Errorf("reading event counters: %w", err)
		}
		counts := map[string]map[string]int{}
		for _, r := range rows {
			if counts[r.CustomerID] == nil {
				counts[r.CustomerID] = map[string]int{}
			}
			counts[r.CustomerID][r.Event] = r.Count
		}
		var bulk []*ent.SegmentMemberCreate
		for _, cu := range custs {
			if filter.Match(filterCustomer(cu, counts[cu.ID])) {
				bulk = append(bulk, c.SegmentMember.Create().SetSegmentID(seg.ID).SetCustomerID(cu.ID).SetEnteredAt(now))
			}
		}
		if len(bulk) > 0 {
			if err := c.SegmentMember.CreateBulk(bulk...).Exec(ctx); err != nil {
				return fmt.Errorf("adding segment members: %w", err)
			}
		}
		after = custs[len(custs)-1].ID
	}
}

// ReevaluateSegments brings the customer's membership of every auto-update
// segment up to date and returns the segments the customer entered.
func ReevaluateSegments(ctx context.Context, cust *ent.Customer) ([]string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	segs, err := c.Segment.Query().Where(segment.Type(SegmentAutoUpdate)).All(ctx)
	if err != nil || len(segs) == 0 {
		return nil, err
	}
	counts, err := EventCounts(ctx, c, cust.ID)
	if err != nil {
		return nil, err
	}
	members, err := c.SegmentMember.Query().Where(segmentmember.CustomerID(cust.ID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading segment membership: %w", err)
	}
	in := map[string]bool{}
	for _, m := range members {
		in[m.SegmentID] = true
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	fc := filterCustomer(cust, counts)
	var entered, left []string
	for _, seg := range segs {
		match := segmentfilter.Match(seg.Filter, fc)
		switch {
		case match && !in[seg.ID]:
			entered = append(entered, seg.ID)
		case !match && in[seg.ID]:
			left = append(left, seg.ID)
		}
	}
	if len(left) > 0 {
		if _, err := c.SegmentMember.Delete().Where(segmentmember.CustomerID(cust.ID), segmentmember.SegmentIDIn(left...)).Exec(ctx); err != nil {
			return nil, fmt.Errorf("leaving segments: %w", err)
		}
	}
	for _, id := range entered {
		err := c.SegmentMember.Create().SetSegmentID(id).SetCustomerID(cust.ID).SetEnteredAt(now).
			OnConflictColumns(segmentmember.FieldSegmentID, segmentmember.FieldCustomerID).DoNothing().Exec(ctx)
		if err != nil && !IsNoRows(err) {
			return nil, fmt.Errorf("entering segment: %w", err)
		}
	}
	return entered, nil
}

// IsNoRows reports the error ent returns when an upsert did nothing.
func IsNoRows(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no rows in result set")
}

// EventCounts returns the customer's event counters by event name.
func EventCounts(ctx context.Context, c *ent.Client, customerID string) (map[string]int, error) {
	rows, err := c.CustomerEventCount.Query().Where(customereventcount.CustomerID(customerID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading event counters: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Event] = r.Count
	}
	return out, nil
}
