package catalog

import (
	"context"
	"encoding/json"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/clock"
)

// upsertProduct inserts the product of in (which has a source_id) or,
// when the project has a product of that source_id, applies the sent
// fields to it: one INSERT … ON CONFLICT statement, so two concurrent
// creates of one source_id yield one product on PostgreSQL as on SQLite.
// created tells which happened.
func upsertProduct(ctx context.Context, c *ent.Client, in *ProductInput) (p *ent.Product, created bool, err error) {
	// A binned product's source_id stays taken (no live product holds it).
	if err := bin.CheckFree(ctx, bin.TypeProduct, *in.SourceID); err != nil {
		return nil, false, err
	}
	newID := product.DefaultID() // the id returned tells an insert from an update
	id, err := newProduct(c, in).SetID(newID).
		OnConflictColumns(product.FieldProjectID, product.FieldSourceID).
		Update(func(u *ent.ProductUpsert) { setProductFields(u, in) }).
		ID(ctx)
	if err != nil {
		return nil, false, wrap("saving product", err)
	}
	p, err = c.Product.Get(ctx, id)
	if err != nil {
		return nil, false, wrap("reading product", err)
	}
	return p, id == newID, nil
}

// setProductFields writes the sent fields into an upsert's update; with
// none, a no-op assignment, so that the statement still returns the id.
func setProductFields(u *ent.ProductUpsert, in *ProductInput) {
	if !in.hasFields() {
		u.Set(product.FieldSourceID, *in.SourceID)
		return
	}
	if in.Name != nil {
		u.SetName(*in.Name)
	}
	if in.Price != nil {
		u.SetPrice(*in.Price)
	}
	if in.ImageURL != nil {
		u.SetImageURL(*in.ImageURL)
	}
	// ent's upsert does not encode JSON columns itself.
	if in.Attributes != nil {
		setJSON(u.UpdateSet, product.FieldAttributes, in.Attributes)
	}
	if in.Metadata != nil {
		setJSON(u.UpdateSet, product.FieldMetadata, in.Metadata)
	}
	u.SetUpdatedAt(clock.Now())
}

// setJSON assigns a JSON column in an upsert's update (the values come
// from decoded JSON, so they always encode).
func setJSON(u *sql.UpdateSet, column string, v any) {
	if b, err := json.Marshal(v); err == nil {
		u.Set(column, b)
	}
}
