package catalog

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateProduct serves REST POST /v1/products and createProduct: an
// upsert. An id names an existing product (404 when unknown: ids are the
// service's), which gets the sent fields; else a source_id finds the
// product or creates it, in one statement, so concurrent creates of one
// source_id agree on one product; else a new product.
func CreateProduct(ctx context.Context, in ProductInput) (*ent.Product, error) {
	if err := in.validate(""); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case in.ID != nil:
		p, err := productByID(ctx, c, *in.ID)
		if err != nil {
			return nil, err
		}
		return updateProduct(ctx, p, &in)
	case in.SourceID != nil:
		p, _, err := upsertProduct(ctx, c, &in)
		return p, err
	}
	p, err := newProduct(c, &in).Save(ctx)
	if err != nil {
		return nil, wrap("creating product", err)
	}
	return p, nil
}

// Product serves REST GET /v1/products/{productId} and the product
// query: ref is the product's id or its source_id.
func Product(ctx context.Context, ref string) (*ent.Product, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := c.Product.Query().Where(product.Or(product.ID(ref), product.SourceID(ref))).Limit(2).All(ctx)
	if err != nil {
		return nil, wrap("reading product", err)
	}
	return store.PreferExact(found, func(p *ent.Product) bool { return p.ID == ref }, "product", ref)
}

// UpdateProduct serves REST PUT /v1/products/{productId} and
// updateProduct: the sent fields change, the others stay; id and
// source_id cannot be changed (the input's are ignored). Metadata and
// attributes, when sent, replace the stored ones.
func UpdateProduct(ctx context.Context, ref string, in ProductInput) (*ent.Product, error) {
	in.ID, in.SourceID = nil, nil
	if err := in.validate(""); err != nil {
		return nil, err
	}
	p, err := Product(ctx, ref)
	if err != nil {
		return nil, err
	}
	return updateProduct(ctx, p, &in)
}

// DeleteProduct serves REST DELETE /v1/products/{productId} and
// deleteProduct: the product and its SKUs are removed. With force=true
// its source_id is free again; without, the product is moved to the
// trash bin, whose entry keeps the source_id reserved (docs/trash-bin.md).
// It returns the product's id.
func DeleteProduct(ctx context.Context, ref string, force *bool) (string, error) {
	p, err := Product(ctx, ref)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if !bin.Skip(force) {
		skus, err := c.Sku.Query().Where(skuOfProduct(p.ID)).Order(ent.Asc(sku.FieldID)).All(ctx)
		if err != nil {
			return "", wrap("reading the product's SKUs", err)
		}
		var reserves []bin.Resource
		for _, s := range skus {
			if s.SourceID != nil {
				reserves = append(reserves, bin.Resource{Type: bin.TypeSku, ID: s.ID, Name: bin.NameOf(s.Sku, s.SourceID, s.ID),
					Reserved: s.SourceID, ParentID: &p.ID})
			}
		}
		if err := bin.Move(ctx, bin.Resource{Type: bin.TypeProduct, ID: p.ID, Name: bin.NameOf(p.Name, p.SourceID, p.ID),
			Reserved: p.SourceID, Reserves: reserves, Snapshot: &bin.Snapshot{Product: p, Skus: skus}}); err != nil {
			return "", err
		}
	}
	// The foreign key cascades too; deleting the SKUs first keeps the
	// project scope of the SKU hook on every row that goes.
	if _, err := c.Sku.Delete().Where(skuOfProduct(p.ID)).Exec(ctx); err != nil {
		return "", wrap("deleting the product's SKUs", err)
	}
	if err := c.Product.DeleteOne(p).Exec(ctx); err != nil {
		return "", wrap("deleting product", err)
	}
	return p.ID, nil
}

// productByID reads a product by its id only (an upsert's id).
func productByID(ctx context.Context, c *ent.Client, id string) (*ent.Product, error) {
	p, err := c.Product.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, productNotFound(id)
	}
	if err != nil {
		return nil, wrap("reading product", err)
	}
	return p, nil
}

// newProduct is the insert of a product (its id: the default).
func newProduct(c *ent.Client, in *ProductInput) *ent.ProductCreate {
	create := c.Product.Create().SetNillableSourceID(in.SourceID).SetNillableName(in.Name).
		SetNillablePrice(in.Price).SetNillableImageURL(in.ImageURL)
	if in.Attributes != nil {
		create.SetAttributes(in.Attributes)
	}
	if in.Metadata != nil {
		create.SetMetadata(in.Metadata)
	}
	return create
}

// updateProduct applies the sent fields; an input without any leaves the
// product as it is (updated_at too).
func updateProduct(ctx context.Context, p *ent.Product, in *ProductInput) (*ent.Product, error) {
	if !in.hasFields() {
		return p, nil
	}
	upd := p.Update().SetNillableName(in.Name).SetNillablePrice(in.Price).SetNillableImageURL(in.ImageURL).
		SetUpdatedAt(clock.Now())
	if in.Attributes != nil {
		upd.SetAttributes(in.Attributes)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	for name, clear := range map[string]func() *ent.ProductUpdateOne{"name": upd.ClearName, "price": upd.ClearPrice,
		"image_url": upd.ClearImageURL} {
		if in.IsNull(name) {
			clear()
		}
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if in.IsNull("attributes") {
		upd.SetAttributes([]string{})
	}
	updated, err := upd.Save(ctx)
	if err != nil {
		return nil, wrap("updating product", err)
	}
	return updated, nil
}
