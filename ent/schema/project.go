package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
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
		field.String("description").Optional().MaxLen(1000),
		// timezone (IANA name) and currency (ISO 4217) describe the
		// project; they are shown, not applied.
		field.String("timezone").Default("UTC").MaxLen(64),
		field.String("currency").Default("USD").MaxLen(3),
		// client_trusted_domains are the origins client-side keys may be
		// used from (see graph/client_origin.go for the accepted forms);
		// empty: client keys work from nowhere.
		field.Strings("client_trusted_domains").Optional(),
		// The client_*_enabled switches allow the client API's writes and
		// lists; all are off until the project turns them on.
		field.Bool("client_redeem_enabled").Default(false),
		field.Bool("client_publish_enabled").Default(false),
		field.Bool("client_list_vouchers_enabled").Default(false),
		field.Bool("client_create_customer_enabled").Default(false),
		field.Bool("client_loyalty_events_enabled").Default(false),
		field.Bool("client_set_voucher_expiration_date_enabled").Default(false),
		// webhook_token is the secret that signs the project's webhooks
		// (x-voucherify-signature, HMAC-SHA256). It is kept in clear because
		// signing needs it; made with the project, regenerated through the
		// management API; projects older than webhooks get one when first
		// read (graph.EnsureWebhookToken).
		field.String("webhook_token").Optional().Sensitive().MaxLen(128).
			DefaultFunc(func() string { return pulid.Hex(32) }),
		// stacking_rules are the rules set through the management API
		// (graph/redemption/stacking); none: the engine's defaults.
		field.JSON("stacking_rules", &jsonfield.StackingRules{}).Optional(),
		// qualification_version changes (to a new random value) in the
		// transaction of every write that changes what a qualification's
		// in-memory tier snapshot holds — tiers, campaigns, validation
		// rules and their assignments, categories (ent/entdb
		// qualification_version.go) — so each server process can tell its
		// snapshot is stale with one read (graph/redemption/
		// tiersnapshot). Random rather than counted: a rolled-back
		// write's value never comes back for other data.
		field.Int64("qualification_version").Default(0),
	}
}

// Indexes of the Project: a name names one project of the installation, so
// a duplicate is refused by the database even when two requests race
// (graph maps the violation to 409 duplicate_found).
func (Project) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("name").Unique(),
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
