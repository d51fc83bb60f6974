package catalog

import (
	"context"
	"strings"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/productcollection"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Product collections (REST /v1/product-collections; docs/products.md).

// Limits of collections (the real service's documented ones).
const (
	// MaxStaticItems is the most products and SKUs a STATIC collection lists.
	MaxStaticItems = 20
	// MaxCollections is the most collections a project holds.
	MaxCollections = 100
)

// CollectionInput is the body of REST POST /v1/product-collections and
// PUT …/{id}, and the GraphQL ProductCollectionInput.
type CollectionInput struct {
	// Name is required on create.
	Name *string `json:"name"`
	// Type is STATIC or AUTO_UPDATE, required on create and fixed after.
	Type *string `json:"type"`
	// Filter is an AUTO_UPDATE collection's (required on create; replaces
	// the stored one on update).
	Filter map[string]any `json:"filter"`
	// Products are a STATIC collection's items (set on create only).
	Products []*CollectionItemInput `json:"products"`
	// Nulls are the members an update sent as an explicit null: none of
	// a collection's members can be cleared, so a null is refused.
	shape.Nulls
}

// CollectionItemInput names a product or SKU of a STATIC collection by
// its id or source_id.
type CollectionItemInput struct {
	ID        *string `json:"id"`
	ProductID *string `json:"product_id"`
	// Object is product (default) or sku.
	Object *string `json:"object"`
}

// CreateCollection serves REST POST /v1/product-collections and
// createProductCollection. A STATIC collection's products must exist
// (404 naming the first unknown one, nothing written).
func CreateCollection(ctx context.Context, in CollectionInput) (*ent.ProductCollection, error) {
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" || len(*in.Name) > 500 {
		return nil, apperr.InvalidPayload("Property .name must be a string of 1 to 500 characters")
	}
	if in.Type == nil || (*in.Type != "STATIC" && *in.Type != "AUTO_UPDATE") {
		return nil, apperr.InvalidPayload("Property .type must be one of STATIC, AUTO_UPDATE")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	create := c.ProductCollection.Create().SetName(*in.Name).SetType(productcollection.Type(*in.Type))
	if *in.Type == "AUTO_UPDATE" {
		if in.Products != nil {
			return nil, apperr.InvalidPayload("Property .products is for STATIC collections; an AUTO_UPDATE collection has a filter")
		}
		if _, err := parseCollectionFilter(in.Filter); err != nil {
			return nil, err
		}
		create.SetFilter(lowerJunction(in.Filter))
	} else {
		if in.Filter != nil {
			return nil, apperr.InvalidPayload("Property .filter is for AUTO_UPDATE collections; a STATIC collection lists products")
		}
		items, err := staticItems(ctx, c, in.Products)
		if err != nil {
			return nil, err
		}
		create.SetProducts(items)
	}
	if n, err := c.ProductCollection.Query().CountAtMost(ctx, MaxCollections); err != nil {
		return nil, wrap("counting collections", err)
	} else if n >= MaxCollections {
		return nil, apperr.InvalidPayload("A project may hold at most %d product collections", MaxCollections)
	}
	pc, err := create.Save(ctx)
	if err != nil {
		return nil, wrap("creating collection", err)
	}
	return pc, nil
}

// staticItems resolves a STATIC collection's items to catalogue ids:
// {id, object} for a product, {id, product_id, object} for a SKU.
func staticItems(ctx context.Context, c *ent.Client, in []*CollectionItemInput) ([]map[string]any, error) {
	if len(in) > MaxStaticItems {
		return nil, apperr.InvalidPayload("Property .products may hold at most %d items, got %d", MaxStaticItems, len(in))
	}
	out := make([]map[string]any, 0, len(in))
	for i, it := range in {
		if it == nil || it.ID == nil || *it.ID == "" {
			return nil, apperr.InvalidPayload("Property .products[%d].id is required", i)
		}
		object := "product"
		if it.Object != nil {
			object = *it.Object
		}
		switch object {
		case "product":
			p, err := c.Product.Query().Where(product.Or(product.ID(*it.ID), product.SourceID(*it.ID))).First(ctx)
			if ent.IsNotFound(err) {
				return nil, productNotFound(*it.ID)
			}
			if err != nil {
				return nil, wrap("reading product", err)
			}
			out = append(out, map[string]any{"id": p.ID, "object": "product"})
		case "sku":
			s, err := c.Sku.Query().Where(sku.Or(sku.ID(*it.ID), sku.SourceID(*it.ID))).First(ctx)
			if ent.IsNotFound(err) {
				return nil, skuNotFound(*it.ID)
			}
			if err != nil {
				return nil, wrap("reading SKU", err)
			}
			out = append(out, map[string]any{"id": s.ID, "product_id": s.ProductID, "object": "sku"})
		default:
			return nil, apperr.InvalidPayload("Property .products[%d].object must be one of product, sku", i)
		}
	}
	return out, nil
}

// Collection serves REST GET /v1/product-collections/{id}.
func Collection(ctx context.Context, id string) (*ent.ProductCollection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	pc, err := c.ProductCollection.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("products_collection", id)
	}
	if err != nil {
		return nil, wrap("reading collection", err)
	}
	return pc, nil
}

// UpdateCollection serves REST PUT /v1/product-collections/{id}: a
// STATIC collection can be renamed; an AUTO_UPDATE one renamed and its
// filter replaced. The type cannot change.
func UpdateCollection(ctx context.Context, id string, in CollectionInput) (*ent.ProductCollection, error) {
	if err := in.RefuseNull("name", "type", "filter", "products"); err != nil {
		return nil, err
	}
	pc, err := Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Type != nil && *in.Type != pc.Type.String() {
		return nil, apperr.InvalidPayload("Property .type cannot change (the collection is %s)", pc.Type)
	}
	if in.Name != nil && (strings.TrimSpace(*in.Name) == "" || len(*in.Name) > 500) {
		return nil, apperr.InvalidPayload("Property .name must be a string of 1 to 500 characters")
	}
	upd := pc.Update().SetNillableName(in.Name).SetUpdatedAt(clock.Now())
	switch {
	case pc.Type == productcollection.TypeSTATIC && (in.Filter != nil || in.Products != nil):
		return nil, apperr.InvalidPayload("A STATIC collection can only be renamed (property .name)")
	case in.Products != nil:
		return nil, apperr.InvalidPayload("Property .products is for STATIC collections")
	case in.Filter != nil:
		if _, err := parseCollectionFilter(in.Filter); err != nil {
			return nil, err
		}
		upd.SetFilter(lowerJunction(in.Filter))
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, wrap("updating collection", err)
	}
	return out, nil
}

// DeleteCollection serves REST DELETE /v1/product-collections/{id}.
func DeleteCollection(ctx context.Context, id string) (string, error) {
	pc, err := Collection(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if err := c.ProductCollection.DeleteOne(pc).Exec(ctx); err != nil {
		return "", wrap("deleting collection", err)
	}
	return pc.ID, nil
}

// CollectionList is a page of collections and how many there are.
type CollectionList struct {
	Total int                      `json:"total"`
	Data  []*ent.ProductCollection `json:"data"`
}

// ListCollections serves REST GET /v1/product-collections: limit, page
// and order (created_at or updated_at; default -created_at).
func ListCollections(ctx context.Context, in *ListInput) (*CollectionList, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := in.bounds()
	if err != nil {
		return nil, err
	}
	column, desc, err := in.order(map[string]string{"created_at": productcollection.FieldCreatedAt,
		"updated_at": productcollection.FieldUpdatedAt, "name": productcollection.FieldName})
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.ProductCollection.Query().CountAtMost(ctx, MaxCollections+1)
	if err != nil {
		return nil, wrap("counting collections", err)
	}
	data, err := c.ProductCollection.Query().Order(orderTerms[productcollection.OrderOption](column, desc)...).
		Offset(offset).Limit(limit).All(ctx)
	if err != nil {
		return nil, wrap("listing collections", err)
	}
	return &CollectionList{Total: total, Data: data}, nil
}

// Collections lists the caller's product collections as a Relay connection.
func Collections(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.ProductCollectionOrder, where *ent.ProductCollectionWhereInput) (*ent.ProductCollectionConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.ProductCollection.Query().Paginate(ctx, after, first, before, last,
		ent.WithProductCollectionOrder(orderBy), ent.WithProductCollectionFilter(where.Filter))
}
