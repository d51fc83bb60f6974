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

// Category groups campaigns for stacking (REST /v1/categories): a name,
// unique within the project, and a hierarchy (lower is applied first).
// Campaigns and vouchers point at it through category_id (a foreign key
// that becomes null when the category is deleted); their category column
// keeps its name, kept equal by the category use cases (graph/category*.go).
type Category struct{ ent.Schema }

// Mixin of the Category: IDs look like the real service's (cat_ and 18 hex
// characters, in creation order).
func (Category) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixCategory, Length: 4, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Category.
func (Category) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).
			Annotations(entgql.OrderField("NAME")),
		field.Int("hierarchy").NonNegative().
			Annotations(entgql.OrderField("HIERARCHY")),
	}
}

// Edges of the Category: the campaigns and vouchers assigned to it (not in
// the graph; Campaign.categories and Voucher.categories show the other
// direction).
func (Category) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("campaigns", Campaign.Type).
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip(entgql.SkipAll)),
		edge.To("vouchers", Voucher.Type).
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the Category: a name identifies a category within its project
// (campaigns name their category by it).
func (Category) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "name").Unique()}
}

// Annotations of the Category.
func (Category) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection()}
}
