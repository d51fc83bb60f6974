package redemption

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// RedemptionListInput is GET /v1/redemptions' query (and a voucher's
// redemption list): page/limit, filters, and an order.
type RedemptionListInput struct {
	Limit         *int       `json:"limit"`
	Page          *int       `json:"page"`
	Result        []string   `json:"result"`
	Campaign      *string    `json:"campaign"`
	Customer      *string    `json:"customer"`
	Voucher       *string    `json:"voucher"`
	CreatedBefore *time.Time `json:"created_before"`
	CreatedAfter  *time.Time `json:"created_after"`
	Order         *string    `json:"order"`
	// Filters is the filters[…] object (ParameterFiltersListRedemptions:
	// {junction, <field>: {conditions: {$op: value(s)}}}; list_filters.go).
	Filters map[string]any `json:"filters"`
}

// RedemptionList is a page of the redemption history and the number of
// all matching entries.
type RedemptionList struct {
	Total int               `json:"total"`
	Data  []*ent.Redemption `json:"data"`
}

// redemptionOrders are the orders GET /v1/redemptions accepts.
var redemptionOrders = map[string]string{
	"created_at": redemption.FieldCreatedAt, "id": redemption.FieldID, "voucher_code": redemption.FieldVoucherCode,
	"tracking_id": redemption.FieldTrackingID, "customer_id": redemption.FieldCustomerID,
}

// List pages the redemption history, newest first by default.
// An unknown customer or campaign gives an empty list, as in the real service.
func List(ctx context.Context, in *RedemptionListInput) (*RedemptionList, error) {
	if in == nil {
		in = &RedemptionListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	field, desc := redemption.FieldCreatedAt, true
	if in.Order != nil {
		name := strings.TrimPrefix(*in.Order, "-")
		f, ok := redemptionOrders[name]
		if !ok {
			return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, id, voucher_code, tracking_id, customer_id (with - for descending)")
		}
		field, desc = f, strings.HasPrefix(*in.Order, "-")
	}
	preds, empty, err := redemptionFilters(ctx, in)
	if err != nil || empty {
		return &RedemptionList{Data: []*ent.Redemption{}}, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	count := c.Redemption.Query().Where(preds...)
	countAll := func(ctx context.Context) (int, error) {
		if len(preds) == 0 { // the project's: off (project_id, created_at, id), see order.ListOrders
			return page.ProjectTotal(ctx, redemption.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
				return count.Where(page.CountInIndexOrder(true, redemption.FieldCreatedAt, redemption.FieldID)).
					CountAtMost(ctx, ent.TotalCountCap)
			})
		}
		return count.CountAtMost(ctx, ent.TotalCountCap)
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	order := []redemption.OrderOption{sql.OrderByField(field, dir).ToFunc(), redemption.ByID(dir)}
	data, err := listPage(ctx, c, preds, order, field, desc, offset, limit)
	if err != nil {
		return nil, fmt.Errorf("listing redemptions: %w", err)
	}
	if graphql.GetFieldContext(ctx) == nil { // REST: the campaigns' categories (restPage)
		vs := make([]*ent.Voucher, 0, len(data))
		for _, r := range data {
			if r.Edges.Voucher != nil {
				vs = append(vs, r.Edges.Voucher)
			}
		}
		if err := campaignpkg.CampaignCategories(ctx, vs); err != nil {
			return nil, fmt.Errorf("listing redemptions: %w", err)
		}
	}
	total := 0
	if fields.Selected(ctx, "total") {
		if total, err = page.PageTotal(ctx, offset, limit, len(data), countAll); err != nil {
			return nil, fmt.Errorf("counting redemptions: %w", err)
		}
	}
	return &RedemptionList{Total: total, Data: data}, nil
}

// listPage reads the page: for REST with each entry's customer and
// voucher (with its category and its campaign's name and category_id) in
// one statement (restPage, list_rest.go; CampaignCategories then reads
// campaigns' categories only when one has one); over GraphQL only the
// columns and edges the query selects (collectListFields), so
// redemptionList{data{id …}} reads one statement for its page, the unique
// edges (the customer, a voucher's category and campaign) read in the
// statement of their owners (JoinEdges, ent/template/joinedge.tmpl).
func listPage(ctx context.Context, c *ent.Client, preds []predicate.Redemption, order []redemption.OrderOption,
	field string, desc bool, offset, limit int) ([]*ent.Redemption, error) {
	rest := graphql.GetFieldContext(ctx) == nil
	if rest && RESTPageInOneStatement {
		return restPage(ctx, c, preds, order, field, desc, offset, limit)
	}
	q := c.Redemption.Query().Where(preds...)
	if offset > 0 { // the skipped rows are read by an index-only sub-select
		deferred, err := page.DeferredOffset(ctx, redemption.Table, preds, order, offset, limit)
		if err != nil {
			return nil, err
		}
		q = c.Redemption.Query().Where(deferred)
	}
	q = q.Order(order...).Limit(limit)
	if rest { // what restPage reads, loaded by ent (RESTPageInOneStatement off)
		q.Select(restListColumns...)
		q.WithVoucher(func(vq *ent.VoucherQuery) { campaignpkg.WithJoinedVoucherCategories(vq) }).
			WithCustomer(func(cq *ent.CustomerQuery) { cq.Select(restListCustomerColumns...) })
	} else if err := fields.CollectList(ctx, "data", func(ctx context.Context) error { _, err := q.CollectFields(ctx); return err }); err != nil {
		return nil, err
	}
	return q.JoinEdges().All(ctx)
}

// restListColumns are the columns of a redemption a REST page shows (or
// loads its edges by): not updated_at, voucher_code, campaign_id, order_id
// or the applied_discount document, which only a redemption's own answer
// and the exports read.
var restListColumns = []string{
	redemption.FieldProjectID, redemption.FieldCreatedAt, redemption.FieldObject, redemption.FieldResult,
	redemption.FieldStatus, redemption.FieldFailureCode, redemption.FieldFailureMessage, redemption.FieldParentID,
	redemption.FieldRolledBackID, redemption.FieldRollbackID, redemption.FieldVoucherID, redemption.FieldCustomerID,
	redemption.FieldTrackingID, redemption.FieldSessionKey, redemption.FieldReason, redemption.FieldRelatedObjectType,
	redemption.FieldRelatedObjectID, redemption.FieldAmount, redemption.FieldMetadata, redemption.FieldOrder,
	redemption.FieldReward, redemption.FieldChannel,
}

// restListCustomerColumns are the columns of the customer a REST
// redemption shows (rest's redemptionCustomer, or the client view's id
// and source_id).
var restListCustomerColumns = []string{customer.FieldSourceID, customer.FieldName, customer.FieldEmail, customer.FieldMetadata}

// redemptionFilters builds the list's predicates; empty reports a filter
// naming something that does not exist (so nothing can match).
func redemptionFilters(ctx context.Context, in *RedemptionListInput) (preds []predicate.Redemption, empty bool, err error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, false, err
	}
	if len(in.Result) > 0 {
		for _, r := range in.Result {
			if r != "SUCCESS" && r != "FAILURE" {
				return nil, false, apperr.InvalidQueryParams("Query parameter result must be SUCCESS or FAILURE")
			}
		}
		// Constants, so that result=FAILURE reads the partial index of
		// failures (listfilter.Literal).
		preds = append(preds, predicate.Redemption(listfilter.Literal(redemption.FieldResult, slices.Compact(slices.Sorted(slices.Values(in.Result)))...)),
			predicate.Redemption(listfilter.Literal(redemption.FieldObject, redemption.ObjectRedemption.String())))
	}
	if in.Campaign != nil {
		ids, err := c.Campaign.Query().Where(campaign.Or(campaign.Name(*in.Campaign), campaign.ID(*in.Campaign))).IDs(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("looking up campaign: %w", err)
		}
		if len(ids) == 0 {
			return nil, true, nil
		}
		preds = append(preds, redemption.CampaignIDIn(ids...))
	}
	if in.Customer != nil {
		ids, err := c.Customer.Query().Where(customer.Or(customer.ID(*in.Customer), customer.SourceID(*in.Customer))).IDs(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("looking up customer: %w", err)
		}
		if len(ids) == 0 {
			return nil, true, nil
		}
		preds = append(preds, redemption.CustomerIDIn(ids...))
	}
	if in.Voucher != nil {
		preds = append(preds, redemption.VoucherID(*in.Voucher))
	}
	if in.CreatedBefore != nil {
		preds = append(preds, redemption.CreatedAtLT(*in.CreatedBefore))
	}
	if in.CreatedAfter != nil {
		preds = append(preds, redemption.CreatedAtGT(*in.CreatedAfter))
	}
	if len(in.Filters) > 0 {
		where, err := listfilter.BuildFields(in.Filters, listFilterFields(ctx, c))
		if err != nil {
			return nil, false, err
		}
		preds = append(preds, where)
	}
	return preds, false, nil
}

// ByID finds an entry of the history (with voucher and customer).
func ByID(ctx context.Context, id string) (*ent.Redemption, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.Redemption.Query().Where(redemption.ID(id)).
		WithVoucher(func(vq *ent.VoucherQuery) { campaignpkg.WithVoucherCategories(vq) }).WithCustomer().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("redemption", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up redemption: %w", err)
	}
	return r, nil
}

// Connection is the redemption history as a Relay connection.
func Connection(ctx context.Context, base predicate.Redemption, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.RedemptionOrder, where *ent.RedemptionWhereInput) (*ent.RedemptionConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	q := c.Redemption.Query()
	if base != nil {
		q = q.Where(base)
	}
	opts := []ent.RedemptionPaginateOption{ent.WithRedemptionOrder(orderBy), ent.WithRedemptionFilter(where.Filter)}
	if base == nil && where == nil {
		// The project's redemptions: totalCount off (project_id,
		// created_at, id), an index-only walk of a dense index; unordered,
		// PostgreSQL took (project_id, id), whose random hex IDs leave it
		// about twice the pages (0.8 ms more of its CPU per page on a
		// project of 1M redemptions).
		all := q.Clone()
		opts = append(opts, ent.WithRedemptionTotalCount(func(ctx context.Context) (int, error) {
			return page.ProjectTotal(ctx, redemption.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
				return all.Clone().Where(page.CountInIndexOrder(true, redemption.FieldCreatedAt, redemption.FieldID)).
					CountAtMost(ctx, ent.TotalCountCap)
			})
		}))
	}
	return q.Paginate(ctx, after, first, before, last, opts...)
}

// CustomerRedemptions is Customer.redemptions.
func CustomerRedemptions(ctx context.Context, obj *ent.Customer, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.RedemptionOrder, where *ent.RedemptionWhereInput) (*ent.RedemptionConnection, error) {
	if page.EagerLoaded(ctx, obj.NamedRedemptions) {
		return page.Bounded(first, last, func(first *int) (*ent.RedemptionConnection, error) {
			return obj.Redemptions(ctx, after, first, before, last, orderBy, where)
		})
	}
	return Connection(ctx, redemption.CustomerID(obj.ID), after, first, before, last, orderBy, where)
}

// VoucherRedemptions is Voucher.redemptions.
func VoucherRedemptions(ctx context.Context, obj *ent.Voucher, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.RedemptionOrder, where *ent.RedemptionWhereInput) (*ent.RedemptionConnection, error) {
	if page.EagerLoaded(ctx, obj.NamedRedemptions) {
		return page.Bounded(first, last, func(first *int) (*ent.RedemptionConnection, error) {
			return obj.Redemptions(ctx, after, first, before, last, orderBy, where)
		})
	}
	return Connection(ctx, redemption.VoucherID(obj.ID), after, first, before, last, orderBy, where)
}
