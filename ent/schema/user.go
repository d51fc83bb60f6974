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

// User is a person who works on projects (dashboard users of the real
// service). Users span projects; their role in each is a ProjectUser.
type User struct{ ent.Schema }

// Mixin of the User.
func (User) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixUser, Length: 32}, TimeMixin{}}
}

// Fields of the User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("login").NotEmpty().MaxLen(320).Unique(),
		field.String("email").NotEmpty().MaxLen(320),
		field.String("first_name").Default(""),
		field.String("last_name").Default(""),
		field.Bool("is_owner").Default(false),
	}
}

// Edges of the User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{edge.To("memberships", ProjectUser.Type)}
}

// Annotations of the User: management data stays out of GraphQL.
func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// ProjectUser is a user's role in one project (ADMIN, USER, VIEWER, …).
type ProjectUser struct{ ent.Schema }

// Mixin of the ProjectUser.
func (ProjectUser) Mixin() []ent.Mixin {
	return []ent.Mixin{ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the ProjectUser.
func (ProjectUser) Fields() []ent.Field {
	return []ent.Field{
		field.String("user_id").NotEmpty().Immutable(),
		field.String("role").NotEmpty().MaxLen(50),
	}
}

// Edges of the ProjectUser.
func (ProjectUser) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("memberships").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ProjectUser: one role per user and project.
func (ProjectUser) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "user_id").Unique()}
}

// Annotations of the ProjectUser: management data stays out of GraphQL.
func (ProjectUser) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
