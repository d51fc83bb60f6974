package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// AppKey is an application key of one project: a server-side key (X-App-Id
// + X-App-Token, the whole server API) or a client-side key
// (X-Client-Application-Id + X-Client-Token, only /client/v1 and only from
// the project's trusted origins). Its
// ID is the public app id; only a hash of the token is stored. A BLOCKED key
// authenticates nothing, and neither do the OAuth tokens it issued (they are
// checked against their key on every request). Regenerating replaces the
// token hash and keeps the id, so issued OAuth tokens keep working.
type AppKey struct{ ent.Schema }

// Mixin of the AppKey.
func (AppKey) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields of the AppKey.
func (AppKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").NotEmpty().MaxLen(200).Immutable(),
		field.String("project_id").NotEmpty().Immutable(),
		field.String("name").Default("default"),
		field.String("token_hash").NotEmpty().Sensitive(),
		field.Enum("status").Values("ACTIVE", "BLOCKED").Default("ACTIVE"),
		// side says which API the key opens; neither kind works on the
		// other's API.
		field.Enum("side").Values("SERVER", "CLIENT").Default("SERVER").Immutable(),
		// allowed_ips are IP addresses and CIDR prefixes the key (and its
		// OAuth tokens) may be used from; empty allows any address.
		field.Strings("allowed_ips").Optional(),
	}
}

// Edges of the AppKey.
func (AppKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("app_keys").Field("project_id").Unique().Required().Immutable(),
		edge.To("oauth_tokens", OAuthToken.Type),
	}
}

// Indexes of the AppKey: a project's keys are listed and deleted with it.
func (AppKey) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id")}
}

// Annotations of the AppKey: credentials never appear in GraphQL.
func (AppKey) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// ManagementKey is a management key (X-Management-Id + X-Management-Token):
// it administers all projects. Only a hash of the token is stored.
type ManagementKey struct{ ent.Schema }

// Mixin of the ManagementKey.
func (ManagementKey) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields of the ManagementKey.
func (ManagementKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").NotEmpty().MaxLen(200).Immutable(),
		field.String("name").Default("default"),
		field.String("token_hash").NotEmpty().Sensitive(),
	}
}

// Annotations of the ManagementKey: credentials never appear in GraphQL.
func (ManagementKey) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
