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

// OAuthToken is an OAuth 2.0 access token issued to an application key
// (client credentials grant). Only a SHA-256 hash of the token is stored.
// A token is valid while it has not expired and its key exists and is
// ACTIVE; it can never grant more than its key.
type OAuthToken struct{ ent.Schema }

// Mixin of the OAuthToken.
func (OAuthToken) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixOAuthToken, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the OAuthToken.
func (OAuthToken) Fields() []ent.Field {
	return []ent.Field{
		field.String("token_hash").NotEmpty().Unique().Immutable().Sensitive(),
		field.String("app_key_id").NotEmpty().Immutable(),
		// scopes narrow the key's permissions (interface scope values).
		field.Strings("scopes").Immutable(),
		field.Time("expires_at").Immutable(),
	}
}

// Edges of the OAuthToken.
func (OAuthToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("app_key", AppKey.Type).Ref("oauth_tokens").Field("app_key_id").
			Unique().Required().Immutable(),
	}
}

// Indexes of the OAuthToken: the per-project limit counts unexpired tokens.
func (OAuthToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "expires_at")}
}

// Annotations of the OAuthToken: credentials never appear in GraphQL.
func (OAuthToken) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "oauth_tokens"},
		entgql.Skip(entgql.SkipAll),
	}
}
