package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Project is a tenant: every resource belongs to exactly one project, and
// an application key sees only its project's data.
type Project struct{ ent.Schema }

// Mixin of the Project.
func (Project) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixProject, Length: 8}, TimeMixin{}}
}

// Fields of the Project.
func (Project) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		// features are the plan features the project has (package
		// feature); an operation needing a missing one is a 402.
		field.Strings("features").Optional(),
	}
}

// Edges of the Project.
func (Project) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("app_keys", AppKey.Type),
	}
}

// Annotations of the Project: projects are administered, not queried, so
// they stay out of the GraphQL graph.
func (Project) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
