package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Sku is a variant of a product (REST /v1/products/{id}/skus, /v1/skus):
// its own price, currency and attribute values (keys among the product's
// attribute names), image and metadata. source_id is unique within the
// project when set. A SKU is deleted with its product (the foreign key
// cascades).
type Sku struct{ ent.Schema }

// Mixin of the Sku: sku_ and 18 hex characters, in creation order.
func (Sku) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixSku, Length: 4, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Sku.
func (Sku) Fields() []ent.Field {
	return []ent.Field{
		field.String("product_id").NotEmpty().Immutable(),
		field.String("source_id").Optional().Nillable().NotEmpty().MaxLen(500).Immutable().
			Annotations(entgql.OrderField("SOURCE_ID")),
		field.String("sku").Optional().Nillable().MaxLen(500),
		field.Int64("price").Optional().Nillable().Min(0).
			Comment("Unit price in cents.").
			Annotations(entgql.OrderField("PRICE")),
		field.String("currency").Optional().Nillable().MaxLen(20),
		// Shown in GraphQL as a Map by a field resolver (gqlgen.yml).
		field.JSON("attributes", map[string]string{}).Default(map[string]string{}).Annotations(entgql.Type("Map")),
		field.String("image_url").Optional().Nillable().MaxLen(2000),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
	}
}

// Edges of the Sku: its product.
func (Sku) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("product", Product.Type).Ref("skus").Field("product_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Sku: a source_id names one SKU of the project; a
// product's SKUs are listed in creation order.
func (Sku) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "source_id").Unique(),
		index.Fields("product_id", "created_at"),
	}
}

// Annotations of the Sku.
func (Sku) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection()}
}
