package customer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CustomerListInput is GET /v1/customers' query: page/limit (or the SDK's
// scroll: starting_after), filters and an order.
type CustomerListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Page is the 1-based page number, 1-99 (default 1).
	Page *int `json:"page"`
	// Email, Name and City match exactly.
	Email *string `json:"email"`
	Name  *string `json:"name"`
	City  *string `json:"city"`
	// Segment is a segment ID: its members.
	Segment       *string    `json:"segment"`
	CreatedBefore *time.Time `json:"created_before"`
	CreatedAfter  *time.Time `json:"created_after"`
	UpdatedBefore *time.Time `json:"updated_before"`
	UpdatedAfter  *time.Time `json:"updated_after"`
	// StartingAfter continues a scroll: customers created after it when
	// the order is created_at, before it otherwise (the SDK's scroll).
	StartingAfter *time.Time `json:"starting_after"`
	// Order is created_at, updated_at or source_id; a leading - sorts
	// descending. Default -created_at.
	Order *string `json:"order"`
}

// CustomerList is a page of customers, how many match in all, and whether
// more follow this page.
type CustomerList struct {
	Total   int             `json:"total"`
	HasMore bool            `json:"has_more"`
	Data    []*ent.Customer `json:"data"`
}

// List pages the caller's customers, newest first by default.
func List(ctx context.Context, in *CustomerListInput) (*CustomerList, error) {
	if in == nil {
		in = &CustomerListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	name, desc := "created_at", true
	if in.Order != nil {
		name, desc = strings.TrimPrefix(*in.Order, "-"), strings.HasPrefix(*in.Order, "-")
	}
	field, ok := map[string]string{"created_at": customer.FieldCreatedAt, "updated_at": customer.FieldUpdatedAt,
		"source_id": customer.FieldSourceID}[name]
	if !ok {
		return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, updated_at, source_id (with - for descending)")
	}
	preds := customerFilters(in)
	if in.StartingAfter != nil {
		if name == "created_at" && !desc {
			preds = append(preds, customer.CreatedAtGT(*in.StartingAfter))
		} else {
			preds = append(preds, customer.CreatedAtLT(*in.StartingAfter))
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Customer.Query().Where(preds...)
	total := 0
	if fields.Selected(ctx, "total") {
		count := q.Clone()
		if len(preds) == 0 {
			// The project's customers: counted in the order of the
			// (project_id, created_at, id) index, an index-only walk;
			// unordered, PostgreSQL read a project that is most of the
			// table with a sequential scan stopping at the cap.
			total, err = page.ProjectTotal(ctx, customer.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
				return count.Where(page.CountInIndexOrder(true, customer.FieldCreatedAt, customer.FieldID)).
					CountAtMost(ctx, ent.TotalCountCap)
			})
		} else {
			total, err = count.CountAtMost(ctx, ent.TotalCountCap)
		}
		if err != nil {
			return nil, fmt.Errorf("counting customers: %w", err)
		}
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	opts := []sql.OrderTermOption{dir}
	if field != customer.FieldCreatedAt {
		opts = append(opts, sql.OrderNullsLast())
	}
	// One row past the page tells has_more without a count.
	order := []customer.OrderOption{sql.OrderByField(field, opts...).ToFunc(), customer.ByID(dir)}
	switch { // the skipped rows are read by an index-only sub-select
	case offset > 0 && field == customer.FieldCreatedAt: // from the page's first row on, in the index
		from, err := page.DeferredKeyset(ctx, customer.Table, preds, []string{customer.FieldCreatedAt, customer.FieldID}, desc, offset)
		if err != nil {
			return nil, err
		}
		q = q.Where(from)
	case offset > 0: // updated_at and source_id may be NULL: the page's IDs
		deferred, err := page.DeferredOffset(ctx, customer.Table, preds, order, offset, limit+1)
		if err != nil {
			return nil, err
		}
		q = c.Customer.Query().Where(deferred)
	}
	q = q.Order(order...).Limit(limit + 1)
	if err := fields.CollectList(ctx, "data", func(ctx context.Context) error { _, err := q.CollectFields(ctx); return err }); err != nil {
		return nil, fmt.Errorf("listing customers: %w", err)
	}
	data, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing customers: %w", err)
	}
	more := len(data) > limit
	if more {
		data = data[:limit]
	}
	return &CustomerList{Total: total, HasMore: more, Data: data}, nil
}

func customerFilters(in *CustomerListInput) []predicate.Customer {
	var preds []predicate.Customer
	if in.Email != nil {
		preds = append(preds, customer.Email(*in.Email))
	}
	if in.Name != nil {
		preds = append(preds, customer.Name(*in.Name))
	}
	if in.City != nil {
		city := *in.City
		preds = append(preds, func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(s.C(customer.FieldAddress), city, sqljson.Path("city")))
		})
	}
	if in.Segment != nil {
		segment := *in.Segment
		preds = append(preds, func(s *sql.Selector) {
			members := sql.Select(segmentmember.FieldCustomerID).From(sql.Table(segmentmember.Table)).
				Where(sql.EQ(segmentmember.FieldSegmentID, segment))
			s.Where(sql.In(s.C(customer.FieldID), members))
		})
	}
	if in.CreatedBefore != nil {
		preds = append(preds, customer.CreatedAtLT(*in.CreatedBefore))
	}
	if in.CreatedAfter != nil {
		preds = append(preds, customer.CreatedAtGT(*in.CreatedAfter))
	}
	if in.UpdatedBefore != nil {
		preds = append(preds, customer.UpdatedAtLT(*in.UpdatedBefore))
	}
	if in.UpdatedAfter != nil {
		preds = append(preds, customer.UpdatedAtGT(*in.UpdatedAfter))
	}
	return preds
}

// customerSegments lists the segments a customer (by id or source_id) is
// a member of, oldest membership first (REST GET
// /v1/customers/{customerId}/segments, GraphQL Customer.segments).
func customerSegments(ctx context.Context, cust *ent.Customer) ([]*ent.Segment, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	members, err := c.SegmentMember.Query().Where(segmentmember.CustomerID(cust.ID)).
		Order(ent.Asc(segmentmember.FieldEnteredAt), ent.Asc(segmentmember.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the customer's segments: %w", err)
	}
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.SegmentID
	}
	segs, err := c.Segment.Query().Where(segment.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading the customer's segments: %w", err)
	}
	byID := make(map[string]*ent.Segment, len(segs))
	for _, s := range segs {
		byID[s.ID] = s
	}
	out := make([]*ent.Segment, 0, len(ids))
	for _, id := range ids {
		if s, ok := byID[id]; ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// SegmentsOfCustomer is customerSegments for a customer named by id or
// source_id (404 when unknown).
func SegmentsOfCustomer(ctx context.Context, idOrSourceID string) ([]*ent.Segment, error) {
	cust, err := ByIDOrSourceID(ctx, idOrSourceID)
	if err != nil {
		return nil, err
	}
	return customerSegments(ctx, cust)
}
