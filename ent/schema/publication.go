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

// Publication records vouchers handed to a customer. A source_id (the
// caller's id of the publication) is unique within a project, which makes
// a repeated request idempotent.
type Publication struct{ ent.Schema }

// Mixin of the Publication. IDs sort in creation order (pub_ and 32 hex
// characters, the real service's length): consecutive publications then
// add to the same last pages of the primary-key and join-table indexes
// instead of random ones, which on SQLite makes a group commit write far
// fewer pages (docs/benchmarks.md, "Ordered IDs").
func (Publication) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixPublish, Length: 18, Ordered: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Publication.
func (Publication) Fields() []ent.Field {
	return []ent.Field{
		field.String("customer_id").Immutable(),
		field.String("tracking_id").Optional().Nillable().Immutable(),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		field.String("channel").Default("API").Immutable(),
		field.String("source_id").Optional().Nillable().Immutable(),
		field.String("result").Default("SUCCESS").Immutable(),
		// The request's source: the campaign it drew from, or the code asked for.
		field.String("campaign_id").Optional().Nillable().Immutable(),
		field.String("requested_code").Optional().Nillable().Immutable(),
		// count_form: the request named campaign.count, so the response lists
		// codes (vouchers) instead of one voucher object.
		field.Bool("count_form").Default(false).Immutable().Annotations(entgql.Skip()),
		// voucher_ids keeps the published vouchers in response order.
		field.Strings("voucher_ids").Immutable().Annotations(entgql.Skip()),
		// deleted_vouchers keeps what each of the publication's vouchers
		// that was deleted since looked like at its deletion: voucher id →
		// the voucher's JSON as a string (the ent entity with its
		// campaign's name and category, graph/campaign
		// voucher_snapshots.go; a string, so that merging keys in SQL
		// never rewrites it), written in the deleting transaction; NULL
		// while every voucher lives (a new publication never has one: the
		// publish statement does not read it). A restored voucher's key
		// goes (docs/publications.md, "Deleted vouchers").
		field.JSON("deleted_vouchers", map[string]string{}).Optional().Annotations(entgql.Skip()),
	}
}

// Edges of the Publication.
func (Publication) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("customer", Customer.Type).Ref("publications").Field("customer_id").Unique().Required().Immutable(),
		edge.To("vouchers", Voucher.Type).Through("publication_vouchers", PublicationVoucher.Type).
			Annotations(entgql.RelayConnection()),
	}
}

// Indexes of the Publication.
func (Publication) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "source_id").Unique(),
		index.Fields("customer_id", "campaign_id"),
		// GET /v1/publications: -created_at, of the project or of a campaign.
		index.Fields("project_id", "created_at", "id"),
		// The GraphQL connection's order (id) within the project: without
		// it a project that is a small share of the table walked the
		// primary key past other projects' rows, or sorted all its own.
		index.Fields("project_id", "id"),
		index.Fields("campaign_id", "created_at", "id").Annotations(whereNotNull("campaign_id")),
		// A customer's activities (and GET /v1/publications?customer=):
		// -created_at within the customer's publications.
		// project_id is included (PostgreSQL) so that the capped count of
		// a customer's publications (…/activities' total) is an index-only
		// scan: every read also filters by the project.
		index.Fields("customer_id", "created_at", "id").Annotations(entsql.IncludeColumns("project_id")),
	}
}

// Annotations of the Publication.
func (Publication) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection(),
		// voucherCodes (graph/publication/codes.go) reads voucher_ids.
		ResolverColumns{"voucherCodes": {"voucher_ids"}}}
}
