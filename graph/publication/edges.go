package publication

import (
	"context"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CustomerPublications is a customer's publications connection (Customer.publications), bounded.
func CustomerPublications(ctx context.Context, obj *ent.Customer, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.PublicationOrder, where *ent.PublicationWhereInput) (*ent.PublicationConnection, error) {
	return page.Bounded(first, last, func(first *int) (*ent.PublicationConnection, error) {
		if page.EagerLoaded(ctx, obj.NamedPublications) {
			return obj.Publications(ctx, after, first, before, last, orderBy, where)
		}
		c, err := store.Client(ctx)
		if err != nil {
			return nil, err
		}
		return c.Publication.Query().Where(publication.CustomerID(obj.ID)).Paginate(ctx, after, first, before, last,
			ent.WithPublicationOrder(orderBy), ent.WithPublicationFilter(where.Filter))
	})
}

// VoucherPublications is a voucher's publications connection (Voucher.publications), bounded.
func VoucherPublications(ctx context.Context, obj *ent.Voucher, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.PublicationOrder, where *ent.PublicationWhereInput) (*ent.PublicationConnection, error) {
	return page.Bounded(first, last, func(first *int) (*ent.PublicationConnection, error) {
		if page.EagerLoaded(ctx, obj.NamedPublications) {
			return obj.Publications(ctx, after, first, before, last, orderBy, where)
		}
		return obj.QueryPublications().Unique(false).Paginate(ctx, after, first, before, last,
			ent.WithPublicationOrder(orderBy), ent.WithPublicationFilter(where.Filter))
	})
}

// Vouchers is a publication's vouchers connection (Publication.vouchers), bounded.
func Vouchers(ctx context.Context, obj *ent.Publication, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.VoucherOrder, where *ent.VoucherWhereInput) (*ent.VoucherConnection, error) {
	return page.Bounded(first, last, func(first *int) (*ent.VoucherConnection, error) {
		if page.EagerLoaded(ctx, obj.NamedVouchers) {
			return obj.Vouchers(ctx, after, first, before, last, orderBy, where)
		}
		return obj.QueryVouchers().Unique(false).Paginate(ctx, after, first, before, last,
			ent.WithVoucherOrder(orderBy), ent.WithVoucherFilter(where.Filter))
	})
}
