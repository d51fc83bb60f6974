package redemption

import (
	"context"
	"slices"

	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// The cart as validation rules and product-targeted discounts see it:
// the request's lines with what the catalogue knows of them (ids and
// source ids, product metadata, prices, collections), read once per
// request and only when a redeemable has rules.

// loadCart reads the catalogue's view of the request's lines when some
// redeemable has a validation rule that reads them (validationrule's
// ReadsCart: item, product, SKU, price or collection rules, applicable_to);
// order-level rules (amount, segment, metadata, counts) need no catalogue
// read. The collections looked up are those the rules name; the products'
// metadata is read only for product.metadata rules.
func (e *evaluation) loadCart(ctx context.Context) error {
	for _, s := range e.states {
		s.itemView = e.ruleItem
	}
	in := e.req.order
	if in == nil || len(in.Items) == 0 {
		return nil
	}
	need, metadata := false, false
	var collections []string
	for _, s := range e.states {
		for _, r := range s.rules {
			if !r.ReadsCart() {
				continue
			}
			need, metadata = true, metadata || r.ReadsProductMetadata()
			_, _, cols := r.Refs()
			for _, c := range cols {
				if !slices.Contains(collections, c) {
					collections = append(collections, c)
				}
			}
		}
	}
	if !need {
		return nil
	}
	refs := make([]catalog.CartRef, len(in.Items))
	for i, it := range in.Items {
		if it != nil {
			d := discountItem(it)
			refs[i] = catalog.CartRef{Product: d.ProductID, SKU: d.SKUID}
		}
	}
	resolve := catalog.ResolveCartWithoutMetadata // only product.metadata rules read it
	if metadata {
		resolve = catalog.ResolveCart
	}
	lines, err := resolve(ctx, refs, collections)
	if err != nil {
		return err
	}
	e.cart = lines
	return nil
}

// ruleItem is an order line as rules and applicable_to see it: the
// calculation's line with the request's metadata and the catalogue's ids,
// product metadata, price and collections.
func (e *evaluation) ruleItem(it discount.Item) validationrule.Item {
	ri := validationrule.Item{ProductID: it.ProductID, SKUID: it.SKUID, Quantity: it.Quantity, Amount: it.Amount, Price: it.Price}
	i := it.Line - 1
	if in := e.req.order; in != nil && i >= 0 && i < len(in.Items) && in.Items[i] != nil {
		ri.Metadata = in.Items[i].Metadata
		ri.ProductMetadata, _ = in.Items[i].Product["metadata"].(map[string]any)
	}
	if i < 0 || i >= len(e.cart) {
		return ri
	}
	l := e.cart[i]
	for _, id := range []string{l.ProductID, l.ProductSourceID} {
		if id != "" && id != ri.ProductID {
			ri.ProductAliases = append(ri.ProductAliases, id)
		}
	}
	for _, id := range []string{l.SKUID, l.SKUSourceID} {
		if id != "" && id != ri.SKUID {
			ri.SKUAliases = append(ri.SKUAliases, id)
		}
	}
	ri.Collections = l.Collections
	if ri.ProductMetadata == nil {
		ri.ProductMetadata = l.ProductMetadata
	}
	if ri.Price == 0 {
		ri.Price = l.Price
	}
	return ri
}

// totalAfter is the order's total after s's discount alone on the start
// order (the order.total_amount rule); nil when it cannot be worked out.
func (e *evaluation) totalAfter(s *redeemableState) *int64 {
	c := e.candidateOf(s) // formulas.go
	if c.Discount == nil {
		return nil
	}
	o := *e.order // shares the lines: Apply gives o new ones when it changes them
	if _, err := o.Apply(*c.Discount, c.Eligible); err != nil {
		return nil
	}
	t := o.TotalAmount()
	return &t
}
