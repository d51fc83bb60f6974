package customer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/fields"
	pagepkg "github.com/promoengine/promoengine/graph/internal/page"
)

// A customer's activities (REST GET /v1/customers/{customerId}/activities)
// are not stored as such: they are read from what the service records for
// the customer — the customer itself, publications, redemptions and
// rollbacks, custom events, segment entries and referrals (one source each,
// activity_sources.go) — merged into one list in time order.

// CustomerActivityListInput is the query of the activities list.
type CustomerActivityListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Order is created_at or -created_at (default).
	Order *string `json:"order"`
	// StartingAfter continues after this time (the created_at of the last
	// activity of the previous page).
	StartingAfter *time.Time `json:"starting_after"`
	// StartingAfterID continues after this activity.
	StartingAfterID *string `json:"starting_after_id"`
	// CampaignType and CampaignID keep activities of such campaigns only
	// (publications, redemptions, rollbacks, referrals).
	CampaignType *campaign.CampaignType `json:"campaign_type"`
	CampaignID   *string                `json:"campaign_id"`
	// StartDate and EndDate bound created_at (inclusive).
	StartDate *time.Time `json:"start_date"`
	EndDate   *time.Time `json:"end_date"`
	// Type keeps activities of this event type only; Category those of
	// its category, ACTION or EFFECT (activity_types.go).
	Type     *string `json:"type"`
	Category *string `json:"category"`
	// WithoutTotal skips the count: the current REST forms (…/activity)
	// show no total. GraphQL counts only when the query selects total.
	WithoutTotal bool `json:"-"`
}

// CustomerActivity is one thing that happened to a customer.
type CustomerActivity struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	Data      map[string]any `json:"data"`
	CreatedAt time.Time      `json:"created_at"`
	// GroupID is the request that caused it, when known.
	GroupID *string `json:"group_id"`
	// Channel is what the request came through: API (default) or
	// CLIENT_API (REST /activity's data.event_source.channel).
	Channel string `json:"-"`
}

// CustomerActivityList is a page of activities, how many match in all and
// whether more follow.
type CustomerActivityList struct {
	Total   int                 `json:"total"`
	HasMore bool                `json:"has_more"`
	Data    []*CustomerActivity `json:"data"`
}

// activityFilter is what every source applies.
type activityFilter struct {
	customerID string
	desc       bool
	// after is the cursor: rows past (afterTime, afterID) in list order;
	// an empty afterID means past afterTime.
	afterTime *time.Time
	afterID   string
	from, to  *time.Time
	// campaignID and campaignType limit campaign sources; campaignScoped
	// leaves out the sources that have no campaign.
	campaignID     *string
	campaignType   *campaign.CampaignType
	campaignScoped bool
	// types are the activity types kept (nil: all).
	types map[string]bool
}

// window limits rows by their time column to [from, to] (count and page).
func (f activityFilter) window(col string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if f.from != nil {
			s.Where(sql.GTE(s.C(col), *f.from))
		}
		if f.to != nil {
			s.Where(sql.LTE(s.C(col), *f.to))
		}
	}
}

// after limits rows to those past the cursor in list order.
func (f activityFilter) after(timeCol, idCol string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if f.afterTime == nil {
			return
		}
		t, c, id := *f.afterTime, s.C(timeCol), s.C(idCol)
		past := sql.GT
		if f.desc {
			past = sql.LT
		}
		if f.afterID == "" {
			s.Where(past(c, t))
		} else {
			s.Where(sql.Or(past(c, t), sql.And(sql.EQ(c, t), past(id, f.afterID))))
		}
	}
}

// order sorts rows in list order (time, then ID).
func (f activityFilter) order(timeCol, idCol string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if f.desc {
			s.OrderBy(sql.Desc(s.C(timeCol)), sql.Desc(s.C(idCol)))
		} else {
			s.OrderBy(sql.Asc(s.C(timeCol)), sql.Asc(s.C(idCol)))
		}
	}
}

// campaign limits rows of a campaign source by their campaign column.
func (f activityFilter) campaign(col string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if f.campaignID != nil {
			s.Where(sql.EQ(s.C(col), *f.campaignID))
		}
		if f.campaignType != nil {
			// Campaign IDs are unique across projects; the outer query is
			// scoped to the caller's project.
			t := sql.Table(campaign.Table)
			s.Where(sql.In(s.C(col), sql.Select(t.C(campaign.FieldID)).From(t).
				Where(sql.EQ(t.C(campaign.FieldCampaignType), string(*f.campaignType)))))
		}
	}
}

// before orders a ahead of b in the list (strictly: an activity is never
// before itself, so a cursor never lets its own row through again).
func (f activityFilter) before(a, b *CustomerActivity) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt) != f.desc
	}
	if a.ID == b.ID {
		return false
	}
	return (a.ID < b.ID) != f.desc
}

// isAfter reports whether a is past the cursor (what after does in SQL).
func (f activityFilter) isAfter(a *CustomerActivity) bool {
	switch {
	case f.afterTime == nil:
		return true
	case f.afterID == "" && f.desc:
		return a.CreatedAt.Before(*f.afterTime)
	case f.afterID == "":
		return a.CreatedAt.After(*f.afterTime)
	}
	return f.before(&CustomerActivity{ID: f.afterID, CreatedAt: *f.afterTime}, a)
}

// ListActivities is the customer's activities list.
func ListActivities(ctx context.Context, idOrSourceID string, in *CustomerActivityListInput) (*CustomerActivityList, error) {
	if in == nil {
		in = &CustomerActivityListInput{}
	}
	n, _, err := pagepkg.Offset(in.Limit, nil)
	if err != nil {
		return nil, err
	}
	cust, err := ByIDOrSourceID(ctx, idOrSourceID)
	if err != nil {
		return nil, err
	}
	f := activityFilter{customerID: cust.ID, desc: true, from: in.StartDate, to: in.EndDate,
		campaignID: in.CampaignID, campaignType: in.CampaignType}
	if in.Order != nil {
		switch *in.Order {
		case "created_at":
			f.desc = false
		case "-created_at":
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be created_at or -created_at")
		}
	}
	if t := in.CampaignType; t != nil && campaign.CampaignTypeValidator(*t) != nil {
		return nil, apperr.InvalidQueryParams("Query parameter campaign_type %q is not a campaign type", *t)
	}
	f.campaignScoped = f.campaignID != nil || f.campaignType != nil
	if f.types, err = typeFilter(in.Type, in.Category); err != nil {
		return nil, err
	}
	sources := customerActivitySources(cust)
	switch {
	case in.StartingAfterID != nil && *in.StartingAfterID != "":
		at, err := activityTime(ctx, sources, f, *in.StartingAfterID)
		if err != nil {
			return nil, err
		}
		f.afterTime, f.afterID = &at, *in.StartingAfterID
	case in.StartingAfter != nil:
		f.afterTime = in.StartingAfter
	}
	out := &CustomerActivityList{Data: []*CustomerActivity{}}
	counting := !in.WithoutTotal && fields.Selected(ctx, "total")
	for _, src := range sources {
		// A source keeps the type filter by the types it declares (every
		// source declares them; one that did not would never be listed).
		if f.campaignScoped && !src.campaignScoped || !f.wantsAny(src.types) {
			continue
		}
		// The total is capped over all sources together: each counts only
		// up to what the cap leaves, so a page reads at most
		// ent.TotalCountCap+1 index entries for it (docs/architecture.md,
		// "Counting"); once the cap is reached the rest are not counted.
		if counting && out.Total < ent.TotalCountCap {
			total, err := src.count(ctx, f, ent.TotalCountCap-out.Total)
			if err != nil {
				return nil, fmt.Errorf("counting %s activities: %w", src.name, err)
			}
			out.Total += total
			if total == 0 {
				continue
			}
		}
		// Each source reads one row past the page off an index in list
		// order: the merged rows tell has_more without a count.
		rows, err := src.page(ctx, f, n+1)
		if err != nil {
			return nil, fmt.Errorf("listing %s activities: %w", src.name, err)
		}
		out.Data = append(out.Data, rows...)
	}
	slices.SortStableFunc(out.Data, func(a, b *CustomerActivity) int {
		if f.before(a, b) {
			return -1
		}
		if f.before(b, a) {
			return 1
		}
		return 0
	})
	if len(out.Data) > n {
		out.Data, out.HasMore = out.Data[:n], true
	}
	return out, nil
}

// activityTime is the time of the activity named by id, found by the
// prefix of its ID.
func activityTime(ctx context.Context, sources []customerActivitySource, f activityFilter, id string) (time.Time, error) {
	for _, src := range sources {
		if !slices.ContainsFunc(src.prefixes, func(p string) bool { return strings.HasPrefix(id, p) }) {
			continue
		}
		at, ok, err := src.find(ctx, f, id)
		if err != nil {
			return time.Time{}, fmt.Errorf("looking up activity %s: %w", id, err)
		}
		if ok {
			return at, nil
		}
	}
	return time.Time{}, apperr.InvalidQueryParams("Query parameter starting_after_id %q names no activity of this customer", id)
}
