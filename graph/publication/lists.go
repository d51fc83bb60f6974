package publication

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// PublicationListInput is GET /v1/publications' query (and a voucher's
// publication list).
type PublicationListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Page is the 1-based page number, 1-99 (default 1).
	Page *int `json:"page"`
	// Campaign is a campaign name or ID.
	Campaign *string `json:"campaign"`
	// Customer is a customer ID or source_id.
	Customer *string `json:"customer"`
	// Voucher is a voucher code or ID: publications that published it.
	Voucher *string `json:"voucher"`
	// Result is SUCCESS or FAILURE (failed publications are not stored
	// here, so FAILURE matches nothing).
	Result *string `json:"result"`
	// SourceID is the publication's source_id.
	SourceID *string `json:"source_id"`
	// Order is created_at, id or customer_id; a leading - sorts
	// descending. Default -created_at.
	Order *string `json:"order"`
	// VoucherType is discount or loyalty: publications of codes of that
	// type (DISCOUNT_VOUCHER, LOYALTY_CARD).
	VoucherType *string `json:"voucher_type"`
	// IsReferralCode true keeps the publications of referral codes;
	// false filters nothing (as the reference documents it).
	IsReferralCode *bool `json:"is_referral_code"`
	// Filters is the filters[…] object (ParameterFiltersListPublications:
	// junction, result, customer_id, source_id, failure_code,
	// campaign_name, voucher_type, is_referral_code), see list_filters.go.
	Filters map[string]any `json:"filters"`
}

// PublicationList is a page of publications (with customer and vouchers)
// and the number of all matching ones.
type PublicationList struct {
	Total int                `json:"total"`
	Data  []*ent.Publication `json:"data"`
}

// List pages the caller's publications, newest first by
// default. A campaign, customer or voucher that does not exist gives an
// empty list.
func List(ctx context.Context, in *PublicationListInput) (*PublicationList, error) {
	if in == nil {
		in = &PublicationListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	name, desc := "created_at", true
	if in.Order != nil {
		name, desc = strings.TrimPrefix(*in.Order, "-"), strings.HasPrefix(*in.Order, "-")
	}
	field, ok := map[string]string{"created_at": publication.FieldCreatedAt, "id": publication.FieldID,
		"customer_id": publication.FieldCustomerID}[name]
	if !ok {
		return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, id, customer_id (with - for descending)")
	}
	preds, empty, err := publicationFilters(ctx, in)
	if err != nil || empty {
		return &PublicationList{Data: []*ent.Publication{}}, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	count := c.Publication.Query().Where(preds...)
	countAll := func(ctx context.Context) (int, error) {
		if len(preds) == 0 { // the project's: off (project_id, created_at, id), see ListOrders
			return page.ProjectTotal(ctx, publication.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
				return count.Where(page.CountInIndexOrder(true, publication.FieldCreatedAt, publication.FieldID)).
					CountAtMost(ctx, ent.TotalCountCap)
			})
		}
		return count.CountAtMost(ctx, ent.TotalCountCap)
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	order := []publication.OrderOption{sql.OrderByField(field, dir).ToFunc(), publication.ByID(dir)}
	data, err := listPage(ctx, c, preds, order, field, desc, offset, limit)
	if err != nil {
		return nil, fmt.Errorf("listing publications: %w", err)
	}
	if graphql.GetFieldContext(ctx) == nil { // REST: the campaigns' categories (restPage)
		var vs []*ent.Voucher
		for _, p := range data {
			vs = append(vs, p.Edges.Vouchers...)
		}
		if err := campaignpkg.CampaignCategories(ctx, vs); err != nil {
			return nil, fmt.Errorf("listing publications: %w", err)
		}
	}
	for _, p := range data {
		order := p.VoucherIds
		slices.SortFunc(p.Edges.Vouchers, func(a, b *ent.Voucher) int {
			return slices.Index(order, a.ID) - slices.Index(order, b.ID)
		})
	}
	total := 0
	if fields.Selected(ctx, "total") {
		if total, err = page.PageTotal(ctx, offset, limit, len(data), countAll); err != nil {
			return nil, fmt.Errorf("counting publications: %w", err)
		}
	}
	return &PublicationList{Total: total, Data: data}, nil
}

// RESTPageInOneStatement makes a REST page one statement (restPage); a
// test turns it off to compare its answers with ent's loading of the same
// entities.
var RESTPageInOneStatement = true

// listPage reads the page: for REST with its customers and vouchers in
// one statement (restPage); over GraphQL with the edges the query selects
// (collectListFields; voucherCodes load for the whole page when first
// asked, see publicationCodes), the unique ones among them (the customer,
// a code's campaign or category) read in the statement that reads their
// owners (JoinEdges, ent/template/joinedge.tmpl).
func listPage(ctx context.Context, c *ent.Client, preds []predicate.Publication, order []publication.OrderOption,
	field string, desc bool, offset, limit int) ([]*ent.Publication, error) {
	rest := graphql.GetFieldContext(ctx) == nil
	if rest && RESTPageInOneStatement {
		return restPage(ctx, c, preds, order, field, desc, offset, limit)
	}
	q := c.Publication.Query().Where(preds...)
	if offset > 0 { // the skipped rows are read by an index-only sub-select
		deferred, err := page.DeferredOffset(ctx, publication.Table, preds, order, offset, limit)
		if err != nil {
			return nil, err
		}
		q = c.Publication.Query().Where(deferred)
	}
	q = q.Order(order...).Limit(limit)
	if rest { // what restPage reads, loaded by ent (RESTPageInOneStatement off)
		q.WithCustomer().WithVouchers(func(q *ent.VoucherQuery) { campaignpkg.WithJoinedVoucherCategories(q) })
	} else if err := fields.CollectList(ctx, "data", func(ctx context.Context) error { _, err := q.CollectFields(ctx); return err }); err != nil {
		return nil, err
	}
	return q.JoinEdges().All(ctx)
}
