package publication

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Codes is Publication.voucherCodes: the codes in publication
// order. In a list, the first call loads the codes of every publication
// listed alongside (publicationScope) in one query; the others read them.
func Codes(ctx context.Context, pub *ent.Publication) ([]string, error) {
	if vouchers, err := pub.Edges.VouchersOrErr(); err == nil {
		return codesInOrder(pub.VoucherIds, vouchers), nil
	}
	scope, pubs := publicationScope(graphql.GetFieldContext(ctx))
	byPub, ok, err := fields.LoadOnce(ctx, scope, "voucherCodes", func() (map[string][]string, error) {
		return loadCodes(ctx, pubs())
	})
	if err != nil {
		return nil, err
	}
	if codes, found := byPub[pub.ID]; ok && found {
		return codes, nil
	}
	byPub, err = loadCodes(ctx, []*ent.Publication{pub})
	return byPub[pub.ID], err
}

// publicationScope returns the list the publication being resolved is
// listed in and a function listing that list's publications (called once
// per list, by the first publication's load: every publication resolved
// asks for the scope). For a customer's publications inside a list of
// customers, the scope is the customers' list and the publications are
// every customer's loaded with it, so a page of customers costs one query
// for all their codes.
func publicationScope(fc *graphql.FieldContext) (*graphql.FieldContext, func() []*ent.Publication) {
	list := fields.EnclosingList(fc)
	if list == nil {
		return nil, nil
	}
	if conn := list.Parent; conn != nil && conn.Object == "Customer" {
		if outer := fields.EnclosingList(conn); outer != nil {
			alias := conn.Field.Alias
			if customersPublications(outer.Result, alias, nil) {
				return outer, func() []*ent.Publication {
					var pubs []*ent.Publication
					customersPublications(outer.Result, alias, func(loaded []*ent.Publication) { pubs = append(pubs, loaded...) })
					return pubs
				}
			}
		}
	}
	switch l := list.Result.(type) {
	case []*ent.PublicationEdge:
		return list, func() []*ent.Publication {
			pubs := make([]*ent.Publication, len(l))
			for i, e := range l {
				pubs[i] = e.Node
			}
			return pubs
		}
	case []*ent.Publication:
		return list, func() []*ent.Publication { return l }
	}
	return nil, nil
}

// customersPublications passes each customer's publications loaded under
// alias, for a list of customers (or of their edges), to each (when not
// nil); false when the list is not one or an edge was not loaded with it.
func customersPublications(list any, alias string, each func([]*ent.Publication)) bool {
	visit := func(c *ent.Customer) bool {
		loaded, err := c.NamedPublications(alias)
		if err == nil && each != nil {
			each(loaded)
		}
		return err == nil
	}
	switch l := list.(type) {
	case []*ent.Customer:
		for _, c := range l {
			if !visit(c) {
				return false
			}
		}
	case []*ent.CustomerEdge:
		for _, e := range l {
			if !visit(e.Node) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

// loadCodes returns the codes of pubs by publication ID: one primary-key
// lookup of the vouchers their voucher_ids name, or — when some were read
// without that column — codesByPublication.
func loadCodes(ctx context.Context, pubs []*ent.Publication) (map[string][]string, error) {
	var ids []string
	for _, p := range pubs {
		if len(p.VoucherIds) == 0 {
			pubIDs := make([]string, len(pubs))
			for i, p := range pubs {
				pubIDs[i] = p.ID
			}
			return codesByPublication(ctx, pubIDs)
		}
		ids = append(ids, p.VoucherIds...)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	vouchers, err := c.Voucher.Query().Where(voucher.IDIn(ids...)).Select(voucher.FieldID, voucher.FieldCode).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading publication codes: %w", err)
	}
	codeOf := make(map[string]string, len(vouchers))
	for _, v := range vouchers {
		codeOf[v.ID] = v.Code
	}
	out := make(map[string][]string, len(pubs))
	for _, p := range pubs {
		codes := make([]string, 0, len(p.VoucherIds))
		for _, id := range p.VoucherIds {
			if code, ok := codeOf[id]; ok {
				codes = append(codes, code)
			}
		}
		out[p.ID] = codes
	}
	return out, nil
}

// codesByPublication loads the codes of publications, each in publication
// order.
func codesByPublication(ctx context.Context, ids []string) (map[string][]string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	pubs, err := c.Publication.Query().Where(publication.IDIn(ids...)).
		Select(publication.FieldID, publication.FieldVoucherIds).
		WithVouchers(func(q *ent.VoucherQuery) { q.Select(voucher.FieldCode) }).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading publication codes: %w", err)
	}
	out := make(map[string][]string, len(pubs))
	for _, p := range pubs {
		out[p.ID] = codesInOrder(p.VoucherIds, p.Edges.Vouchers)
	}
	return out, nil
}

// codesInOrder returns the codes of vouchers in the order of ids (any not
// named there follow in load order).
func codesInOrder(ids []string, vouchers []*ent.Voucher) []string {
	byID := make(map[string]string, len(vouchers))
	for _, v := range vouchers {
		byID[v.ID] = v.Code
	}
	codes := make([]string, 0, len(vouchers))
	for _, id := range ids {
		if code, ok := byID[id]; ok {
			codes = append(codes, code)
			delete(byID, id)
		}
	}
	for _, v := range vouchers {
		if _, ok := byID[v.ID]; ok {
			codes = append(codes, v.Code)
		}
	}
	return codes
}
