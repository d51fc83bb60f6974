package order

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
	entorder "github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ListOrders serves REST GET /v1/orders and orderList: a page of the
// project's orders, newest first unless order says otherwise, ties broken
// by id. A page costs O(limit) off the (project_id, created_at, id) index
// (updated_at orders are not indexed: they read until the page fills);
// total is exact up to ent.TotalCountCap.
func ListOrders(ctx context.Context, in *ListInput) (*List, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := bounds(in)
	if err != nil {
		return nil, err
	}
	column, desc := entorder.FieldCreatedAt, true
	if in.Order != nil && *in.Order != "" {
		name := strings.TrimPrefix(*in.Order, "-")
		desc = strings.HasPrefix(*in.Order, "-")
		switch name {
		case "created_at":
			column = entorder.FieldCreatedAt
		case "updated_at":
			column = entorder.FieldUpdatedAt
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, -created_at, updated_at, -updated_at")
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	opts := []sql.OrderTermOption{dir}
	if column != entorder.FieldCreatedAt {
		opts = append(opts, sql.OrderNullsLast())
	}
	order := []entorder.OrderOption{sql.OrderByField(column, opts...).ToFunc(), sql.OrderByField(entorder.FieldID, dir).ToFunc()}
	q := c.Order.Query()
	if offset > 0 { // the skipped rows are read by an index-only sub-select
		deferred, err := page.DeferredOffset(ctx, entorder.Table, []predicate.Order(nil), order, offset, limit)
		if err != nil {
			return nil, err
		}
		q.Where(deferred)
	}
	q.Order(order...).Limit(limit)
	if err := listColumns(ctx, q); err != nil {
		return nil, fmt.Errorf("listing orders: %w", err)
	}
	data, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing orders: %w", err)
	}
	// The total: what a short page proves, else the project's orders
	// counted in the order of the (project_id, created_at, id) index (an
	// index-only walk of the index the pages read, whatever the planner
	// would pick for an unordered count: a sequential scan when the
	// project is most of the table; for redemptions the (project_id, id)
	// index, whose random hex IDs leave it twice the pages to read), not
	// counted again while at the cap (page.ProjectTotal).
	total, err := page.PageTotal(ctx, offset, limit, len(data), func(ctx context.Context) (int, error) {
		return page.ProjectTotal(ctx, entorder.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
			return c.Order.Query().Where(page.CountInIndexOrder(true, entorder.FieldCreatedAt, entorder.FieldID)).
				CountAtMost(ctx, ent.TotalCountCap)
		})
	})
	if err != nil {
		return nil, fmt.Errorf("counting orders: %w", err)
	}
	return &List{Total: total, Data: data}, nil
}

// listColumns chooses the columns a page reads: over GraphQL those the
// query selects (collectListFields); for REST every column ViewOf shows,
// leaving out the calculated document (the largest value of an order row,
// which the REST view rebuilds from the amount and items columns) and the
// earning bookkeeping.
func listColumns(ctx context.Context, q *ent.OrderQuery) error {
	if graphql.GetFieldContext(ctx) != nil {
		return fields.CollectList(ctx, "data", func(ctx context.Context) error { _, err := q.CollectFields(ctx); return err })
	}
	q.Select(viewColumns...)
	return nil
}

// viewColumns are the columns ViewOf reads.
var viewColumns = []string{entorder.FieldCreatedAt, entorder.FieldUpdatedAt, entorder.FieldSourceID,
	entorder.FieldStatus, entorder.FieldCustomerID, entorder.FieldRedemptions, entorder.FieldMetadata,
	entorder.FieldAmount, entorder.FieldDiscountAmount, entorder.FieldItemsDiscountAmount,
	entorder.FieldTotalDiscountAmount, entorder.FieldTotalAmount, entorder.FieldAppliedDiscountAmount,
	entorder.FieldItemsAppliedDiscountAmount, entorder.FieldTotalAppliedDiscountAmount, entorder.FieldItems,
	entorder.FieldReferrerID}

// bounds checks limit (1-100, default 10) and page (1-100, default 1) and
// returns the limit and offset.
func bounds(in *ListInput) (limit, offset int, err error) {
	var p *int
	if in.Page != nil && *in.Page != 100 { // page.Offset stops at 99
		p = in.Page
	}
	if limit, offset, err = page.Offset(in.Limit, p); err != nil {
		return 0, 0, err
	}
	if in.Page != nil && *in.Page == 100 {
		offset = 99 * limit
	}
	return limit, offset, nil
}
