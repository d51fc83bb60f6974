package campaign

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// VoucherListInput is GET /v1/vouchers' query: page/limit, filters, and an
// order. Filters combine with AND; a nil or empty filter is not applied.
type VoucherListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Page is the 1-based page number, 1-99 (default 1).
	Page *int `json:"page"`
	// Campaign is a campaign name or ID.
	Campaign *string `json:"campaign"`
	// CampaignID is a campaign ID.
	CampaignID *string `json:"campaign_id"`
	// Category is a category name or ID (the voucher's category or category_id).
	Category *string `json:"category"`
	// Customer is the holder's customer ID or source_id.
	Customer *string `json:"customer"`
	// Code is one exact voucher code.
	Code *string `json:"code"`
	// IDs are voucher IDs; any of them matches.
	IDs           []string   `json:"ids"`
	CreatedBefore *time.Time `json:"created_before"`
	CreatedAfter  *time.Time `json:"created_after"`
	// UpdatedBefore and UpdatedAfter never match a voucher not updated yet
	// (its updated_at is null).
	UpdatedBefore *time.Time `json:"updated_before"`
	UpdatedAfter  *time.Time `json:"updated_after"`
	// Order is created_at, updated_at or code; a leading - sorts
	// descending. Default -created_at.
	Order *string `json:"order"`
	// HeldOnly keeps vouchers that have a holder (v1 loyalty members; not
	// a parameter of GET /v1/vouchers).
	HeldOnly bool `json:"-"`
}

// VoucherList is a page of vouchers (each with its campaign loaded) and the
// number of all matching vouchers.
type VoucherList struct {
	Total int            `json:"total"`
	Data  []*ent.Voucher `json:"data"`
}

// voucherOrders are the orders GET /v1/vouchers accepts.
var voucherOrders = map[string]string{
	"created_at": voucher.FieldCreatedAt, "updated_at": voucher.FieldUpdatedAt, "code": voucher.FieldCode,
}

// ListVouchers pages the caller's vouchers, newest first by default. An
// unknown campaign or customer gives an empty list, as in the real service.
func ListVouchers(ctx context.Context, in *VoucherListInput) (*VoucherList, error) {
	if in == nil {
		in = &VoucherListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	order, err := voucherOrder(in.Order)
	if err != nil {
		return nil, err
	}
	preds, empty, err := voucherFilters(ctx, in)
	if err != nil || empty {
		return &VoucherList{Data: []*ent.Voucher{}}, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Voucher.Query().Where(preds...)
	total := 0
	if fields.Selected(ctx, "total") {
		if total, err = voucherTotal(ctx, in, q); err != nil {
			return nil, err
		}
	}
	if offset > 0 { // the skipped rows are read by an index-only sub-select
		deferred, err := page.DeferredOffset(ctx, voucher.Table, preds, order, offset, limit)
		if err != nil {
			return nil, err
		}
		q = c.Voucher.Query().Where(deferred)
	}
	q = q.Order(order...).Limit(limit)
	if graphql.GetFieldContext(ctx) == nil {
		WithVoucherCategories(q) // the REST shape shows the campaign's name and the categories
	} else if err := fields.CollectList(ctx, "data", func(ctx context.Context) error { _, err := q.CollectFields(ctx); return err }); err != nil {
		return nil, fmt.Errorf("listing vouchers: %w", err)
	}
	data, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing vouchers: %w", err)
	}
	return &VoucherList{Total: total, Data: data}, nil
}

// voucherTotal is the list's total: the campaigns' maintained
// vouchers_count when the list filters by campaign and nothing else,
// otherwise a count capped at ent.TotalCountCap (docs/campaigns.md,
// "Lists and totals").
func voucherTotal(ctx context.Context, in *VoucherListInput, q *ent.VoucherQuery) (int, error) {
	onlyCampaign := (in.Campaign != nil) != (in.CampaignID != nil) && in.Category == nil && in.Customer == nil && !in.HeldOnly &&
		in.Code == nil && len(in.IDs) == 0 && in.CreatedBefore == nil && in.CreatedAfter == nil &&
		in.UpdatedBefore == nil && in.UpdatedAfter == nil
	if onlyCampaign && in.CampaignID != nil {
		return VoucherCount(ctx, campaign.ID(*in.CampaignID))
	}
	if onlyCampaign {
		return VoucherCount(ctx, campaign.Or(campaign.Name(*in.Campaign), campaign.ID(*in.Campaign)))
	}
	count := q.Clone()
	noFilter := in.Campaign == nil && in.CampaignID == nil && in.Category == nil && in.Customer == nil && in.Code == nil &&
		len(in.IDs) == 0 && in.CreatedBefore == nil && in.CreatedAfter == nil && in.UpdatedBefore == nil && in.UpdatedAfter == nil
	// A program's members are counted off the held-cards index; the
	// project's vouchers off (project_id, created_at, id), an index-only
	// walk (unordered, PostgreSQL read a project that is most of the table
	// with a sequential scan stopping at the cap).
	if in.HeldOnly || noFilter {
		count.Where(page.CountInIndexOrder(true, voucher.FieldCreatedAt, voucher.FieldID))
	}
	total, err := count.CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return 0, fmt.Errorf("counting vouchers: %w", err)
	}
	return total, nil
}

// VoucherCount is the number of vouchers of the campaigns matching which,
// from their maintained vouchers_count (kept by every insert and delete
// of a voucher in the same transaction): a list's total without counting
// rows.
func VoucherCount(ctx context.Context, which predicate.Campaign) (int, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	counts, err := c.Campaign.Query().Where(which).Select(campaign.FieldVouchersCount).Ints(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading the campaign's voucher count: %w", err)
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	return total, nil
}

// voucherOrder turns the order parameter into ORDER BY terms, ties broken
// by ID in the same direction. Vouchers never updated (updated_at null)
// come last in either updated_at order, on SQLite and PostgreSQL alike.
func voucherOrder(order *string) ([]voucher.OrderOption, error) {
	name, desc := "created_at", true
	if order != nil {
		name, desc = strings.TrimPrefix(*order, "-"), strings.HasPrefix(*order, "-")
	}
	field, ok := voucherOrders[name]
	if !ok {
		return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, updated_at, code (with - for descending)")
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	opts := []sql.OrderTermOption{dir}
	if field == voucher.FieldUpdatedAt {
		opts = append(opts, sql.OrderNullsLast())
	}
	return []voucher.OrderOption{sql.OrderByField(field, opts...).ToFunc(), voucher.ByID(dir)}, nil
}

// voucherFilters builds the list's predicates; empty reports a filter
// naming something that does not exist (so nothing can match).
func voucherFilters(ctx context.Context, in *VoucherListInput) (preds []predicate.Voucher, empty bool, err error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, false, err
	}
	if in.Campaign != nil {
		ids, err := c.Campaign.Query().Where(campaign.Or(campaign.Name(*in.Campaign), campaign.ID(*in.Campaign))).IDs(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("looking up campaign: %w", err)
		}
		if len(ids) == 0 {
			return nil, true, nil
		}
		preds = append(preds, voucher.CampaignIDIn(ids...))
	}
	if in.CampaignID != nil {
		preds = append(preds, voucher.CampaignID(*in.CampaignID))
	}
	if in.Customer != nil {
		ids, err := c.Customer.Query().Where(customer.Or(customer.ID(*in.Customer), customer.SourceID(*in.Customer))).IDs(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("looking up customer: %w", err)
		}
		if len(ids) == 0 {
			return nil, true, nil
		}
		preds = append(preds, voucher.HolderIDIn(ids...))
	}
	if in.Category != nil {
		p, err := voucherCategoryPredicate(ctx, *in.Category) // category_assign.go
		if err != nil {
			return nil, false, err
		}
		preds = append(preds, p)
	}
	if in.Code != nil {
		preds = append(preds, voucher.Code(*in.Code))
	}
	if in.HeldOnly {
		preds = append(preds, voucher.HolderIDNotNil())
	}
	if len(in.IDs) > 0 {
		if len(in.IDs) > page.MaxSize {
			return nil, false, apperr.InvalidQueryParams("Query parameter ids may name at most %d vouchers", page.MaxSize)
		}
		preds = append(preds, voucher.IDIn(in.IDs...))
	}
	for _, t := range []struct {
		at   *time.Time
		pred func(time.Time) predicate.Voucher
	}{
		{in.CreatedBefore, voucher.CreatedAtLT}, {in.CreatedAfter, voucher.CreatedAtGT},
		{in.UpdatedBefore, voucher.UpdatedAtLT}, {in.UpdatedAfter, voucher.UpdatedAtGT},
	} {
		if t.at != nil {
			preds = append(preds, t.pred(*t.at))
		}
	}
	return preds, false, nil
}
