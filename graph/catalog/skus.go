package catalog

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateSku serves REST POST /v1/products/{productId}/skus and createSku:
// an upsert under the product (id or source_id; 404 product when
// unknown). An id names an existing SKU of that product (404 sku
// otherwise), which gets the sent fields; else a source_id finds the SKU
// or creates it in one statement (a source_id that belongs to another
// product's SKU is 409: SKU source_ids are unique in the project); else a
// new SKU.
func CreateSku(ctx context.Context, productRef string, in SkuInput) (*ent.Sku, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	p, err := Product(ctx, productRef)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case in.ID != nil:
		s, err := c.Sku.Query().Where(sku.ID(*in.ID), skuOfProduct(p.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, skuNotFound(*in.ID)
		}
		if err != nil {
			return nil, wrap("reading SKU", err)
		}
		return updateSku(ctx, s, &in)
	case in.SourceID != nil:
		if err := bin.CheckFree(ctx, bin.TypeSku, *in.SourceID); err != nil {
			return nil, err
		}
		return upsertSku(ctx, c, p.ID, &in)
	}
	s, err := newSku(c, p.ID, &in).Save(ctx)
	if err != nil {
		return nil, wrap("creating SKU", err)
	}
	return s, nil
}

// Sku serves REST GET /v1/skus/{skuId} and the sku query: ref is the
// SKU's id or its source_id.
func Sku(ctx context.Context, ref string) (*ent.Sku, error) {
	return findSku(ctx, ref)
}

// SkuOfProduct reads a SKU (id or source_id) of a product (id or
// source_id): 404 product, or 404 sku when the product has no such SKU.
func SkuOfProduct(ctx context.Context, productRef, skuRef string) (*ent.Sku, error) {
	p, err := Product(ctx, productRef)
	if err != nil {
		return nil, err
	}
	return findSku(ctx, skuRef, skuOfProduct(p.ID))
}

// UpdateSku serves REST PUT /v1/products/{productId}/skus/{skuId} and
// updateSku: the sent fields change, the others stay; id and source_id
// cannot be changed (the input's are ignored). Attributes and metadata,
// when sent, replace the stored ones.
func UpdateSku(ctx context.Context, productRef, skuRef string, in SkuInput) (*ent.Sku, error) {
	in.ID, in.SourceID = nil, nil
	if err := in.validate(); err != nil {
		return nil, err
	}
	s, err := SkuOfProduct(ctx, productRef, skuRef)
	if err != nil {
		return nil, err
	}
	return updateSku(ctx, s, &in)
}

// DeleteSku serves REST DELETE /v1/products/{productId}/skus/{skuId} and
// deleteSku: the SKU is removed. With force=true its source_id is free
// again; without, the SKU is moved to the trash bin, whose entry keeps the
// source_id reserved (docs/trash-bin.md). It returns the SKU's id.
func DeleteSku(ctx context.Context, productRef, skuRef string, force *bool) (string, error) {
	s, err := SkuOfProduct(ctx, productRef, skuRef)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if !bin.Skip(force) {
		parent := s.ProductID
		if err := bin.Move(ctx, bin.Resource{Type: bin.TypeSku, ID: s.ID, Name: bin.NameOf(s.Sku, s.SourceID, s.ID),
			Reserved: s.SourceID, ParentID: &parent, Snapshot: &bin.Snapshot{Skus: []*ent.Sku{s}}}); err != nil {
			return "", err
		}
	}
	if err := c.Sku.DeleteOne(s).Exec(ctx); err != nil {
		return "", wrap("deleting SKU", err)
	}
	return s.ID, nil
}

// findSku reads the SKU whose id or source_id is ref, among those the
// extra predicates allow.
func findSku(ctx context.Context, ref string, where ...predicate.Sku) (*ent.Sku, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := c.Sku.Query().Where(append(where, sku.Or(sku.ID(ref), sku.SourceID(ref)))...).Limit(2).All(ctx)
	if err != nil {
		return nil, wrap("reading SKU", err)
	}
	return store.PreferExact(found, func(s *ent.Sku) bool { return s.ID == ref }, "sku", ref)
}

// skuOfProduct limits a SKU query to one product's SKUs.
func skuOfProduct(productID string) predicate.Sku { return sku.ProductID(productID) }

// upsertSku inserts the SKU or applies the sent fields to the project's
// SKU of that source_id, in one statement. A SKU of another product
// keeps its source_id: 409, and the caller's transaction undoes the
// statement.
func upsertSku(ctx context.Context, c *ent.Client, productID string, in *SkuInput) (*ent.Sku, error) {
	id, err := newSku(c, productID, in).
		OnConflictColumns(sku.FieldProjectID, sku.FieldSourceID).
		Update(func(u *ent.SkuUpsert) { setSkuFields(u, in) }).
		ID(ctx)
	if err != nil {
		return nil, wrap("saving SKU", err)
	}
	s, err := c.Sku.Get(ctx, id)
	if err != nil {
		return nil, wrap("reading SKU", err)
	}
	if s.ProductID != productID {
		return nil, apperr.Duplicate("sku", fmt.Sprintf("A SKU with source_id %s belongs to product %s", *in.SourceID, s.ProductID))
	}
	return s, nil
}

// newSku is the insert of a SKU of a product.
func newSku(c *ent.Client, productID string, in *SkuInput) *ent.SkuCreate {
	create := c.Sku.Create().SetProductID(productID).SetNillableSourceID(in.SourceID).SetNillableSku(in.Sku).
		SetNillablePrice(in.Price).SetNillableCurrency(in.Currency).SetNillableImageURL(in.ImageURL)
	if in.Attributes != nil {
		create.SetAttributes(in.Attributes)
	}
	if in.Metadata != nil {
		create.SetMetadata(in.Metadata)
	}
	return create
}

// setSkuFields writes the sent fields into an upsert's update (with none,
// a no-op assignment, so that the statement still returns the id).
func setSkuFields(u *ent.SkuUpsert, in *SkuInput) {
	if !in.hasFields() {
		u.Set(sku.FieldSourceID, *in.SourceID)
		return
	}
	if in.Sku != nil {
		u.SetSku(*in.Sku)
	}
	if in.Price != nil {
		u.SetPrice(*in.Price)
	}
	if in.Currency != nil {
		u.SetCurrency(*in.Currency)
	}
	if in.ImageURL != nil {
		u.SetImageURL(*in.ImageURL)
	}
	if in.Attributes != nil {
		setJSON(u.UpdateSet, sku.FieldAttributes, in.Attributes)
	}
	if in.Metadata != nil {
		setJSON(u.UpdateSet, sku.FieldMetadata, in.Metadata)
	}
	u.SetUpdatedAt(clock.Now())
}

// updateSku applies the sent fields; an input without any leaves the SKU
// as it is.
func updateSku(ctx context.Context, s *ent.Sku, in *SkuInput) (*ent.Sku, error) {
	if !in.hasFields() {
		return s, nil
	}
	upd := s.Update().SetNillableSku(in.Sku).SetNillablePrice(in.Price).SetNillableCurrency(in.Currency).
		SetNillableImageURL(in.ImageURL).SetUpdatedAt(clock.Now())
	if in.Attributes != nil {
		upd.SetAttributes(in.Attributes)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	for name, clear := range map[string]func() *ent.SkuUpdateOne{"sku": upd.ClearSku, "price": upd.ClearPrice,
		"currency": upd.ClearCurrency, "image_url": upd.ClearImageURL} {
		if in.IsNull(name) {
			clear()
		}
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if in.IsNull("attributes") {
		upd.SetAttributes(map[string]string{})
	}
	updated, err := upd.Save(ctx)
	if err != nil {
		return nil, wrap("updating SKU", err)
	}
	return updated, nil
}
