package catalog

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/productcollection"
	"github.com/promoengine/promoengine/ent/sku"
)

// CollectionItem is one entry of a collection's products: a product, or
// a SKU with its product.
type CollectionItem struct {
	Product *ent.Product `json:"product"`
	Sku     *ent.Sku     `json:"sku"`
}

// CollectionItemList is a page of a collection's products and SKUs, and
// how many there are (products and SKUs together, exact up to
// ent.TotalCountCap each).
type CollectionItemList struct {
	Total int               `json:"total"`
	Data  []*CollectionItem `json:"data"`
}

// CollectionProducts serves REST GET /v1/product-collections/{id}/products:
// a STATIC collection's listed items in their order; an AUTO_UPDATE
// collection's matching products and SKUs, newest first (order
// created_at for oldest first). A page reads at most offset+limit rows of
// each table off their creation-order indexes.
func CollectionProducts(ctx context.Context, id string, in *ListInput) (*CollectionItemList, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := in.bounds()
	if err != nil {
		return nil, err
	}
	_, desc, err := in.order(map[string]string{"created_at": "created_at"})
	if err != nil {
		return nil, err
	}
	pc, err := Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	c := ent.FromContext(ctx)
	if pc.Type == productcollection.TypeSTATIC {
		return staticPage(ctx, c, pc, limit, offset)
	}
	f, err := parseCollectionFilter(pc.Filter)
	if err != nil {
		return nil, err
	}
	pq := c.Product.Query().Where(predicate.Product(f.predicate(productTarget)))
	sq := c.Sku.Query().Where(predicate.Sku(f.predicate(skuTarget)))
	np, err := pq.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, wrap("counting the collection's products", err)
	}
	ns, err := sq.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, wrap("counting the collection's SKUs", err)
	}
	products, err := pq.Order(orderTerms[product.OrderOption]("created_at", desc)...).Limit(offset + limit).All(ctx)
	if err != nil {
		return nil, wrap("listing the collection's products", err)
	}
	skus, err := sq.Order(orderTerms[sku.OrderOption]("created_at", desc)...).Limit(offset + limit).All(ctx)
	if err != nil {
		return nil, wrap("listing the collection's SKUs", err)
	}
	merged := mergeByCreation(products, skus, desc)
	if offset > len(merged) {
		offset = len(merged)
	}
	page := merged[offset:min(offset+limit, len(merged))]
	if err := withSkuProducts(ctx, c, page); err != nil {
		return nil, err
	}
	return &CollectionItemList{Total: min(np+ns, ent.TotalCountCap), Data: page}, nil
}

// mergeByCreation merges two creation-ordered lists into one.
func mergeByCreation(products []*ent.Product, skus []*ent.Sku, desc bool) []*CollectionItem {
	out := make([]*CollectionItem, 0, len(products)+len(skus))
	i, j := 0, 0
	for i < len(products) || j < len(skus) {
		takeProduct := j >= len(skus)
		if i < len(products) && j < len(skus) {
			p, s := products[i], skus[j]
			before := p.CreatedAt.Before(s.CreatedAt) || (p.CreatedAt.Equal(s.CreatedAt) && p.ID < s.ID)
			takeProduct = before != desc
		}
		if takeProduct {
			out = append(out, &CollectionItem{Product: products[i]})
			i++
		} else {
			out = append(out, &CollectionItem{Sku: skus[j]})
			j++
		}
	}
	return out
}

// staticPage is a page of a STATIC collection's listed items (a listed
// item deleted from the catalogue since is left out).
func staticPage(ctx context.Context, c *ent.Client, pc *ent.ProductCollection, limit, offset int) (*CollectionItemList, error) {
	var productIDs, skuIDs []string
	for _, it := range pc.Products {
		id, _ := it["id"].(string)
		if it["object"] == "sku" {
			skuIDs = append(skuIDs, id)
		} else {
			productIDs = append(productIDs, id)
		}
	}
	products, err := c.Product.Query().Where(product.IDIn(productIDs...)).All(ctx)
	if err != nil {
		return nil, wrap("reading the collection's products", err)
	}
	skus, err := c.Sku.Query().Where(sku.IDIn(skuIDs...)).All(ctx)
	if err != nil {
		return nil, wrap("reading the collection's SKUs", err)
	}
	byID := map[string]*CollectionItem{}
	for _, p := range products {
		byID[p.ID] = &CollectionItem{Product: p}
	}
	for _, s := range skus {
		byID[s.ID] = &CollectionItem{Sku: s}
	}
	var all []*CollectionItem
	for _, it := range pc.Products {
		id, _ := it["id"].(string)
		if item := byID[id]; item != nil {
			all = append(all, item)
		}
	}
	if offset > len(all) {
		offset = len(all)
	}
	page := all[offset:min(offset+limit, len(all))]
	if err := withSkuProducts(ctx, c, page); err != nil {
		return nil, err
	}
	return &CollectionItemList{Total: len(all), Data: page}, nil
}

// withSkuProducts loads the products of the page's SKUs (one query).
func withSkuProducts(ctx context.Context, c *ent.Client, page []*CollectionItem) error {
	var ids []string
	for _, it := range page {
		if it.Sku != nil {
			ids = append(ids, it.Sku.ProductID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	products, err := c.Product.Query().Where(product.IDIn(ids...)).All(ctx)
	if err != nil {
		return wrap("reading the SKUs' products", err)
	}
	byID := map[string]*ent.Product{}
	for _, p := range products {
		byID[p.ID] = p
	}
	for _, it := range page {
		if it.Sku != nil {
			it.Sku.Edges.Product = byID[it.Sku.ProductID]
		}
	}
	return nil
}
