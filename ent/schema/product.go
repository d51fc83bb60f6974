package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Product is an entry of the project's catalogue (REST /v1/products): a
// name, a unit price in cents, the names of the attributes its SKUs give
// values to, and metadata. source_id is the caller's own identifier,
// unique within the project when set; the use cases in graph/catalog
// accept it wherever an id is accepted.
type Product struct{ ent.Schema }

// Mixin of the Product: IDs look like the real service's (prod_ and 18
// hex characters) and sort in creation order (lists page by them).
func (Product) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixProduct, Length: 4, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Product.
func (Product) Fields() []ent.Field {
	return []ent.Field{
		field.String("source_id").Optional().Nillable().NotEmpty().MaxLen(500).Immutable().
			Annotations(entgql.OrderField("SOURCE_ID")),
		field.String("name").Optional().Nillable().MaxLen(500).
			Annotations(entgql.OrderField("NAME")),
		field.Int64("price").Optional().Nillable().Min(0).
			Comment("Unit price in cents.").
			Annotations(entgql.OrderField("PRICE")),
		field.Strings("attributes").Default([]string{}),
		field.String("image_url").Optional().Nillable().MaxLen(2000),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
	}
}

// Edges of the Product: its SKUs, deleted with it (GraphQL lists them
// with skuList, whose page size is bounded).
func (Product) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("skus", Sku.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the Product: a source_id names one product of the project
// (creates upsert by it); created_at serves the lists' date filters.
func (Product) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "source_id").Unique(),
		index.Fields("project_id", "created_at"),
	}
}

// Annotations of the Product.
func (Product) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection()}
}
