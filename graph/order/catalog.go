package order

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// catalogRefs looks the lines' products and SKUs up in the catalogue (by
// id or source_id, two queries for the whole order): a known item gives
// its line the catalogue ids, a snapshot and its price. A line naming an
// unknown item is kept as sent.
func catalogRefs(ctx context.Context, items []*ItemInput) ([]catalogRef, error) {
	refs := make([]catalogRef, len(items))
	var productKeys, skuKeys []string
	for _, it := range items {
		if it == nil {
			continue
		}
		if k := productKey(it); k != "" {
			productKeys = append(productKeys, k)
		}
		if k := skuKey(it); k != "" {
			skuKeys = append(skuKeys, k)
		}
	}
	if len(productKeys) == 0 && len(skuKeys) == 0 {
		return refs, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	skus := map[string]*ent.Sku{}
	if len(skuKeys) > 0 {
		found, err := c.Sku.Query().Where(sku.Or(sku.IDIn(skuKeys...), sku.SourceIDIn(skuKeys...))).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("looking up the order's SKUs: %w", err)
		}
		for _, s := range found {
			skus[s.ID] = s
			if s.SourceID != nil {
				skus[*s.SourceID] = s
			}
			productKeys = append(productKeys, s.ProductID)
		}
	}
	products := map[string]*ent.Product{}
	if len(productKeys) > 0 {
		found, err := c.Product.Query().Where(product.Or(product.IDIn(productKeys...), product.SourceIDIn(productKeys...))).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("looking up the order's products: %w", err)
		}
		for _, p := range found {
			products[p.ID] = p
			if p.SourceID != nil {
				products[*p.SourceID] = p
			}
		}
	}
	for i, it := range items {
		if it == nil {
			continue
		}
		ref := &refs[i]
		if s := skus[skuKey(it)]; s != nil && skuKey(it) != "" {
			ref.SkuID, ref.Price, ref.Sku = s.ID, s.Price, skuSnapshot(s)
			if p := products[s.ProductID]; p != nil {
				ref.ProductID, ref.Product = p.ID, productSnapshot(p)
				if ref.Price == nil {
					ref.Price = p.Price
				}
			}
			continue
		}
		if p := products[productKey(it)]; p != nil && productKey(it) != "" {
			ref.ProductID, ref.Price, ref.Product = p.ID, p.Price, productSnapshot(p)
		}
	}
	return refs, nil
}

// productKey is the product a line names: product_id, product.id,
// product.source_id, or a source_id with related_object "product".
func productKey(it *ItemInput) string {
	return firstOf(it.ProductID, mapString(it.Product, "id"), mapString(it.Product, "source_id"),
		relatedSourceID(it, "product"))
}

// skuKey is the SKU a line names, like productKey.
func skuKey(it *ItemInput) string {
	return firstOf(it.SkuID, mapString(it.Sku, "id"), mapString(it.Sku, "source_id"), relatedSourceID(it, "sku"))
}

func relatedSourceID(it *ItemInput, object string) *string {
	if it.RelatedObject != nil && *it.RelatedObject == object {
		return it.SourceID
	}
	return nil
}

func mapString(m map[string]any, key string) *string {
	if s, ok := m[key].(string); ok {
		return &s
	}
	return nil
}

func firstOf(ss ...*string) string {
	for _, s := range ss {
		if s != nil && *s != "" {
			return *s
		}
	}
	return ""
}

func productSnapshot(p *ent.Product) map[string]any {
	return map[string]any{"id": p.ID, "source_id": p.SourceID, "name": p.Name, "price": p.Price,
		"metadata": shape.OrEmptyMap(p.Metadata), "object": "product"}
}

func skuSnapshot(s *ent.Sku) map[string]any {
	return map[string]any{"id": s.ID, "source_id": s.SourceID, "sku": s.Sku, "price": s.Price,
		"metadata": shape.OrEmptyMap(s.Metadata), "object": "sku"}
}
