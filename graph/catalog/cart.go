package catalog

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/productcollection"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/apperr"
)

// What the catalogue knows of a cart's lines, for validation rules and
// product-targeted discounts (graph/redemption): a fixed number of
// queries per cart, whatever its size.

// CartRef names one order line's product and SKU as the client sent them
// (id or source_id, "" when absent).
type CartRef struct {
	Product, SKU string
}

// CartLine is what the catalogue knows of one line; every field is zero
// for a line naming nothing the catalogue holds.
type CartLine struct {
	// ProductID and ProductSourceID are the line's product (for a SKU
	// line: the SKU's product).
	ProductID, ProductSourceID string
	// SKUID and SKUSourceID are the line's SKU.
	SKUID, SKUSourceID string
	// ProductMetadata is the product's metadata.
	ProductMetadata map[string]any
	// Price is the catalogue unit price: the SKU's, else the product's (0: none).
	Price int64
	// Collections are the ids, among those asked for, of the collections
	// holding the line's product or SKU.
	Collections []string
}

// ResolveCart looks the lines up by id or source_id (at most four queries:
// products and SKUs, by id and by source_id) and
// tells which of collectionIDs hold each line (a STATIC collection by
// its listed products and SKUs — a product listed covers its SKUs — an
// AUTO_UPDATE one by its filter, two queries each). Unknown collections
// are left out.
func ResolveCart(ctx context.Context, refs []CartRef, collectionIDs []string) ([]CartLine, error) {
	return resolveCart(ctx, refs, collectionIDs, true)
}

// ResolveCartWithoutMetadata is ResolveCart without the products' metadata
// (every ProductMetadata nil), for a caller whose rules do not read it: a
// product's metadata is most of what a cart's read returns.
func ResolveCartWithoutMetadata(ctx context.Context, refs []CartRef, collectionIDs []string) ([]CartLine, error) {
	return resolveCart(ctx, refs, collectionIDs, false)
}

func resolveCart(ctx context.Context, refs []CartRef, collectionIDs []string, metadata bool) ([]CartLine, error) {
	c := ent.FromContext(ctx)
	var pRefs, sRefs []string
	for _, r := range refs {
		if r.Product != "" {
			pRefs = append(pRefs, r.Product)
		}
		if r.SKU != "" {
			sRefs = append(sRefs, r.SKU)
		}
	}
	skus := map[string]*ent.Sku{}
	if len(sRefs) > 0 {
		// Only the columns a cart line takes (a qualification resolves
		// its cart on every request).
		// By id and by source_id apart, as the products below.
		cols := []string{sku.FieldID, sku.FieldSourceID, sku.FieldPrice, sku.FieldProductID}
		var found []*ent.Sku
		if ids := withPrefix(sRefs, pulid.PrefixSku); len(ids) > 0 {
			var err error
			if found, err = c.Sku.Query().Where(sku.IDIn(ids...)).Select(cols...).All(ctx); err != nil {
				return nil, wrap("reading the cart's SKUs", err)
			}
		}
		bySource, err := c.Sku.Query().Where(sku.SourceIDIn(sRefs...)).Select(cols...).All(ctx)
		if err != nil {
			return nil, wrap("reading the cart's SKUs", err)
		}
		found = append(found, bySource...)
		for _, s := range found {
			skus[s.ID] = s
			if s.SourceID != nil {
				skus[*s.SourceID] = s
			}
			pRefs = append(pRefs, s.ProductID)
		}
	}
	products := map[string]*ent.Product{}
	if len(pRefs) > 0 {
		// By id and by source_id in two reads: one OR of both is no index
		// condition under the project's filter, and PostgreSQL then reads
		// every product of the project (a 10,000-product catalogue: most of
		// a qualification's cost).
		// A reference that does not look like an id (prod_…) is no id: a
		// cart named by source_ids takes one read.
		cols := []string{product.FieldID, product.FieldSourceID, product.FieldPrice}
		if metadata {
			cols = append(cols, product.FieldMetadata)
		}
		var found []*ent.Product
		if ids := withPrefix(pRefs, pulid.PrefixProduct); len(ids) > 0 {
			var err error
			if found, err = c.Product.Query().Where(product.IDIn(ids...)).Select(cols...).All(ctx); err != nil {
				return nil, wrap("reading the cart's products", err)
			}
		}
		bySource, err := c.Product.Query().Where(product.SourceIDIn(pRefs...)).Select(cols...).All(ctx)
		if err != nil {
			return nil, wrap("reading the cart's products", err)
		}
		found = append(found, bySource...)
		for _, p := range found {
			products[p.ID] = p
			if p.SourceID != nil {
				products[*p.SourceID] = p
			}
		}
	}
	lines := make([]CartLine, len(refs))
	for i, r := range refs {
		l := &lines[i]
		p := products[r.Product]
		if s := skus[r.SKU]; s != nil {
			l.SKUID, l.SKUSourceID = s.ID, deref(s.SourceID)
			if s.Price != nil {
				l.Price = *s.Price
			}
			if p == nil {
				p = products[s.ProductID]
			}
		}
		if p != nil {
			l.ProductID, l.ProductSourceID, l.ProductMetadata = p.ID, deref(p.SourceID), p.Metadata
			if l.Price == 0 && p.Price != nil {
				l.Price = *p.Price
			}
		}
	}
	if len(collectionIDs) > 0 {
		if err := collectionMembership(ctx, c, lines, collectionIDs); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// withPrefix is the refs that may be ids of the entity whose ids start
// with prefix (every product and SKU id does: ent/schema/pulid).
func withPrefix(refs []string, prefix string) []string {
	var out []string
	for _, r := range refs {
		if strings.HasPrefix(r, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// collectionMembership fills lines' Collections.
func collectionMembership(ctx context.Context, c *ent.Client, lines []CartLine, ids []string) error {
	var pIDs, sIDs []string
	for _, l := range lines {
		if l.ProductID != "" {
			pIDs = append(pIDs, l.ProductID)
		}
		if l.SKUID != "" {
			sIDs = append(sIDs, l.SKUID)
		}
	}
	if len(pIDs) == 0 {
		return nil
	}
	pcs, err := c.ProductCollection.Query().Where(productcollection.IDIn(ids...)).All(ctx)
	if err != nil {
		return wrap("reading product collections", err)
	}
	for _, pc := range pcs {
		members := map[string]bool{}
		if pc.Type == productcollection.TypeSTATIC {
			for _, it := range pc.Products {
				if id, _ := it["id"].(string); id != "" {
					members[id] = true
				}
			}
		} else {
			f, err := parseCollectionFilter(pc.Filter)
			if err != nil {
				return err
			}
			ps, err := c.Product.Query().Where(product.IDIn(pIDs...), predicate.Product(f.predicate(productTarget))).IDs(ctx)
			if err != nil {
				return wrap("matching the collection's products", err)
			}
			ss, err := c.Sku.Query().Where(sku.IDIn(sIDs...), predicate.Sku(f.predicate(skuTarget))).IDs(ctx)
			if err != nil {
				return wrap("matching the collection's SKUs", err)
			}
			for _, id := range slices.Concat(ps, ss) {
				members[id] = true
			}
		}
		for i := range lines {
			if members[lines[i].ProductID] || (lines[i].SKUID != "" && members[lines[i].SKUID]) {
				lines[i].Collections = append(lines[i].Collections, pc.ID)
			}
		}
	}
	return nil
}

// CheckTargets reports a 404 (naming the first unknown one) unless every
// product, SKU and collection exists (by id, or source_id for products
// and SKUs).
func CheckTargets(ctx context.Context, productRefs, skuRefs, collectionIDs []string) error {
	c := ent.FromContext(ctx)
	lines, err := ResolveCart(ctx, refsOf(productRefs, skuRefs), nil)
	if err != nil {
		return err
	}
	for i, l := range lines[:len(productRefs)] {
		if l.ProductID == "" {
			return productNotFound(productRefs[i])
		}
	}
	for i, l := range lines[len(productRefs):] {
		if l.SKUID == "" {
			return skuNotFound(skuRefs[i])
		}
	}
	if len(collectionIDs) == 0 {
		return nil
	}
	found, err := c.ProductCollection.Query().Where(productcollection.IDIn(collectionIDs...)).IDs(ctx)
	if err != nil {
		return wrap("reading product collections", err)
	}
	for _, id := range collectionIDs {
		if !slices.Contains(found, id) {
			return apperr.NotFound("products_collection", id)
		}
	}
	return nil
}

// refsOf builds one CartRef per product ref, then one per SKU ref.
func refsOf(productRefs, skuRefs []string) []CartRef {
	refs := make([]CartRef, 0, len(productRefs)+len(skuRefs))
	for _, p := range productRefs {
		refs = append(refs, CartRef{Product: p})
	}
	for _, s := range skuRefs {
		refs = append(refs, CartRef{SKU: s})
	}
	return refs
}
