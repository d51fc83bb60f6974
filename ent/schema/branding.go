package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Branding is a project's brand configuration (management API). A project
// has at most one: a unique index on project_id enforces it for concurrent
// requests and every server process.
type Branding struct{ ent.Schema }

// Mixin of the Branding.
func (Branding) Mixin() []ent.Mixin { return []ent.Mixin{ProjectMixin{}, TimeMixin{}} }

// Fields of the Branding.
func (Branding) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").
			DefaultFunc(func() string { return pulid.PrefixBranding + pulid.Hex(9) }).
			NotEmpty().Immutable(),
		field.JSON("brand", jsonfield.Brand{}),
		field.JSON("address", jsonfield.Address{}),
		field.JSON("contact", jsonfield.Contact{}),
		field.JSON("cockpits", jsonfield.Cockpits{}),
	}
}

// Indexes of the Branding: one per project.
func (Branding) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id").Unique().StorageKey("branding_one_per_project")}
}

// Annotations of the Branding: management data stays out of GraphQL.
func (Branding) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
