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

// Customer is a person vouchers are published to. source_id is the
// caller's own identifier, unique within a project.
type Customer struct{ ent.Schema }

// Mixin of the Customer. IDs sort in creation order (cust_ and 24 hex
// characters, the real service's length), for the reason publications'
// do (publication.go).
func (Customer) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixCustomer, Length: 10, Ordered: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Customer.
func (Customer) Fields() []ent.Field {
	return []ent.Field{
		field.String("source_id").Optional().Nillable().NotEmpty().MaxLen(500).
			Annotations(entgql.OrderField("SOURCE_ID")),
		field.String("name").Optional().Nillable().MaxLen(500),
		field.String("description").Optional().Nillable(),
		field.String("email").Optional().Nillable().MaxLen(500),
		field.String("phone").Optional().Nillable().MaxLen(100),
		field.String("birthday").Optional().Nillable().MaxLen(10),
		field.JSON("address", &jsonfield.CustomerAddress{}).Optional().Annotations(entgql.Type("CustomerAddress")),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		field.JSON("system_metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		// The counters of summary.orders, kept by graph/order in the
		// transaction that moves an order into or out of PAID/FULFILLED.
		field.Int64("orders_total_amount").Default(0).Annotations(entgql.Skip()),
		field.Int("orders_total_count").Default(0).Annotations(entgql.Skip()),
		field.Int64("orders_last_amount").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("orders_last_date").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges of the Customer.
func (Customer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("publications", Publication.Type).Annotations(entgql.RelayConnection()),
		edge.To("redemptions", Redemption.Type).Annotations(entgql.RelayConnection()),
	}
}

// Indexes of the Customer: source_id unique per project; GET
// /v1/customers' default order (-created_at) reads a page off the second,
// its email filter (finding a customer by email) off the third, the
// GraphQL connection's (id) off the fourth — without it a project that is
// a small share of the table read a page by walking the primary key past
// other projects' rows, or by sorting all its own (docs/architecture.md,
// "Lists at a million rows").
func (Customer) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "source_id").Unique(),
		index.Fields("project_id", "created_at", "id"),
		index.Fields("project_id", "email").Annotations(whereNotNull("email")),
		index.Fields("project_id", "id"),
	}
}

// Annotations of the Customer.
func (Customer) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection(), entgql.MultiOrder()}
}
