package bin

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ListInput is the query of GET /v1/trash-bin and binEntries.
type ListInput struct {
	// Limit is 1-100 (default 10).
	Limit *int `json:"limit"`
	// Order is id (default, oldest first) or -id.
	Order *string `json:"order"`
	// StartingAfterID is the entry the page starts after (in the order).
	StartingAfterID *string  `json:"starting_after_id"`
	Filters         []Filter `json:"filters"`
	// Or joins the filters with OR (filters[junction]=or; default AND).
	Or bool `json:"or"`
}

// Entry is one bin entry as GET /v1/trash-bin shows it.
type Entry struct {
	ID               string    `json:"id"`
	CreatedAt        time.Time `json:"created_at"`
	DeletedByUserID  *string   `json:"deleted_by_user_id"`
	ResourceID       string    `json:"resource_id"`
	ResourceType     string    `json:"resource_type"`
	ResourceName     string    `json:"resource_name"`
	ResourceParentID *string   `json:"resource_parent_id"`
	// AsyncActionID is only set on the answer of a campaign's restore that
	// continues as a CAMPAIGN.RESTORE job.
	AsyncActionID *string `json:"async_action_id,omitempty"`
}

// List is a page of bin entries. Total is the number of entries on the
// page (the documented meaning); HasMore says another page follows, after
// the last entry's id.
type List struct {
	Data    []*Entry `json:"data"`
	Total   int      `json:"total"`
	HasMore bool     `json:"has_more"`
}

// ListEntries serves GET /v1/trash-bin and binEntries: the project's
// entries in id (= creation) order, limit+1 rows read for has_more.
func ListEntries(ctx context.Context, in *ListInput) (*List, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, err := page.Limit(in.Limit)
	if err != nil {
		return nil, err
	}
	desc, err := page.IDOrder(in.Order)
	if err != nil {
		return nil, err
	}
	preds, err := filterPredicates(in.Filters)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	// Not the entries that only reserve names, nor a campaign's whose
	// restore job runs (it is on its way out).
	q := c.BinEntry.Query().Where(binentry.ParentEntryIDIsNil(), binentry.StateNEQ(binentry.StateRESTORING))
	if len(preds) > 0 {
		if in.Or {
			q.Where(binentry.Or(preds...))
		} else {
			q.Where(binentry.And(preds...))
		}
	}
	dir := sql.OrderAsc()
	if in.StartingAfterID != nil && *in.StartingAfterID != "" {
		after := *in.StartingAfterID
		if desc {
			q.Where(binentry.IDLT(after))
		} else {
			q.Where(binentry.IDGT(after))
		}
	}
	if desc {
		dir = sql.OrderDesc()
	}
	rows, err := q.Order(sql.OrderByField(binentry.FieldID, dir).ToFunc()).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the bin: %w", err)
	}
	out := &List{HasMore: len(rows) > limit, Data: []*Entry{}}
	if out.HasMore {
		rows = rows[:limit]
	}
	for _, r := range rows {
		out.Data = append(out.Data, entryOf(r))
	}
	out.Total = len(out.Data)
	return out, nil
}

// entryOf is a stored entry as listed.
func entryOf(r *ent.BinEntry) *Entry {
	return &Entry{ID: r.ID, CreatedAt: r.CreatedAt, DeletedByUserID: r.DeletedByUserID, ResourceID: r.ResourceID,
		ResourceType: string(r.ResourceType), ResourceName: r.ResourceName, ResourceParentID: r.ResourceParentID}
}

// ensure the predicate type is the generated one.
var _ predicate.BinEntry = binentry.ID("")
