package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// UserInvitation is a pending invitation of a person to projects
// (management API, docs/management.md): no mail is sent, the invitation is
// stored until an operator turns it into a user. One per e-mail address.
type UserInvitation struct{ ent.Schema }

// Mixin of the UserInvitation.
func (UserInvitation) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixUserInvitation, Length: 24}, TimeMixin{}}
}

// Fields of the UserInvitation.
func (UserInvitation) Fields() []ent.Field {
	return []ent.Field{
		field.String("email").NotEmpty().MaxLen(320).Unique(),
		field.String("first_name").MaxLen(1000),
		field.String("last_name").MaxLen(1000),
		// projects maps a project ID to the role offered there.
		field.JSON("projects", map[string]string{}),
	}
}

// Annotations of the UserInvitation: management data stays out of GraphQL.
func (UserInvitation) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
