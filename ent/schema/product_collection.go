package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// ProductCollection is a named set of catalogue items (REST
// /v1/product-collections): STATIC lists its products and SKUs
// (products), AUTO_UPDATE holds a filter evaluated against the catalogue
// whenever the collection is read (graph/catalog).
type ProductCollection struct{ ent.Schema }

// Mixin of the ProductCollection: pc_ and hex characters in creation order.
func (ProductCollection) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixCollection, Length: 4, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the ProductCollection.
func (ProductCollection) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(500),
		field.Enum("type").Values("STATIC", "AUTO_UPDATE").Immutable().
			Annotations(entgql.Type("ProductCollectionType")),
		field.JSON("filter", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		// products: the listed items of a STATIC collection, as
		// {id, product_id?, object} objects.
		field.JSON("products", []map[string]any{}).Optional().Annotations(entgql.Skip()),
	}
}

// Indexes of the ProductCollection: the list's default order.
func (ProductCollection) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at", "id")}
}

// Annotations of the ProductCollection.
func (ProductCollection) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection()}
}
