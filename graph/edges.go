package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
)

// Edge connections go through here so every page is bounded (the
// generated edge methods apply no LIMIT without first/last).

// bounded applies boundPage to first/last and then fetches the page.
func bounded[C any](first, last *int, fetch func(first *int) (C, error)) (C, error) {
	first, err := boundPage(first, last)
	if err != nil {
		var zero C
		return zero, err
	}
	return fetch(first)
}

func campaignVouchers(ctx context.Context, obj *ent.Campaign, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.VoucherOrder, where *ent.VoucherWhereInput) (*ent.VoucherConnection, error) {
	return bounded(first, last, func(first *int) (*ent.VoucherConnection, error) {
		return obj.Vouchers(ctx, after, first, before, last, orderBy, where)
	})
}

func customerPublications(ctx context.Context, obj *ent.Customer, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.PublicationOrder, where *ent.PublicationWhereInput) (*ent.PublicationConnection, error) {
	return bounded(first, last, func(first *int) (*ent.PublicationConnection, error) {
		return obj.Publications(ctx, after, first, before, last, orderBy, where)
	})
}

func voucherPublications(ctx context.Context, obj *ent.Voucher, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.PublicationOrder, where *ent.PublicationWhereInput) (*ent.PublicationConnection, error) {
	return bounded(first, last, func(first *int) (*ent.PublicationConnection, error) {
		return obj.Publications(ctx, after, first, before, last, orderBy, where)
	})
}

func publicationVouchers(ctx context.Context, obj *ent.Publication, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.VoucherOrder, where *ent.VoucherWhereInput) (*ent.VoucherConnection, error) {
	return bounded(first, last, func(first *int) (*ent.VoucherConnection, error) {
		return obj.Vouchers(ctx, after, first, before, last, orderBy, where)
	})
}

// publicationCodes lists a publication's codes in publication order.
func publicationCodes(ctx context.Context, pub *ent.Publication) ([]string, error) {
	vouchers := pub.Edges.Vouchers
	if vouchers == nil {
		loaded, err := loadPublication(ctx, pub.ID)
		if err != nil {
			return nil, err
		}
		vouchers = loaded.Edges.Vouchers
	}
	codes := make([]string, len(vouchers))
	for i, v := range vouchers {
		codes[i] = v.Code
	}
	return codes, nil
}
