package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Edge connections and lists go through here so every page is bounded (the
// generated edge methods apply no LIMIT without first/last) and no edge
// query asks the database for DISTINCT rows.
//
// ent marks a query built by traversing an edge (parent.QueryX()) unique,
// so it runs as SELECT DISTINCT over every selected column: PostgreSQL then
// sorts the parent's whole child set instead of reading the first page off
// the primary key (a 100,000-voucher campaign: 14 ms instead of 0.4 ms).
// From one parent no child can appear twice — a one-to-many edge is a
// foreign key on the child, and a many-to-many join table has the pair as
// its primary key — so these queries filter the child table by the foreign
// key, or traverse with Unique(false).

func campaignVouchers(ctx context.Context, obj *ent.Campaign, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.VoucherOrder, where *ent.VoucherWhereInput) (*ent.VoucherConnection, error) {
	return page.Bounded(first, last, func(first *int) (*ent.VoucherConnection, error) {
		if page.EagerLoaded(ctx, obj.NamedVouchers) {
			return obj.Vouchers(ctx, after, first, before, last, orderBy, where)
		}
		c, err := store.Client(ctx)
		if err != nil {
			return nil, err
		}
		opts := []ent.VoucherPaginateOption{ent.WithVoucherOrder(orderBy), ent.WithVoucherFilter(where.Filter)}
		if where == nil { // totalCount is the campaign's maintained count
			opts = append(opts, ent.WithVoucherTotalCount(func(ctx context.Context) (int, error) {
				return campaign.VoucherCount(ctx, entcampaign.ID(obj.ID))
			}))
		}
		return c.Voucher.Query().Where(voucher.CampaignID(obj.ID)).Paginate(ctx, after, first, before, last, opts...)
	})
}
