package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PublicationVoucher is the link of a publication to one of its vouchers:
// the join table publication_vouchers of the Publication.vouchers edge,
// declared as an edge schema only so that it can carry an index on
// voucher_id (an M2M edge has no way to declare one). Its table, columns,
// primary key (publication_id, voucher_id) and foreign keys are those the
// plain M2M edge made, so no data moves. The voucher_id index serves
// GET /v1/publications?voucher= and a voucher's deletion (the ON DELETE
// CASCADE of the link and graph/campaign's snapshots of the publications
// of deleted vouchers), which otherwise read the whole table.
type PublicationVoucher struct{ ent.Schema }

// Annotations of the PublicationVoucher: the composite primary key, the
// M2M edge's table name, and nothing of it in the graph.
func (PublicationVoucher) Annotations() []schema.Annotation {
	return []schema.Annotation{
		field.ID("publication_id", "voucher_id"),
		entsql.Table("publication_vouchers"),
		entgql.Skip(entgql.SkipAll),
	}
}

// Fields of the PublicationVoucher.
func (PublicationVoucher) Fields() []ent.Field {
	return []ent.Field{
		field.String("publication_id").Immutable(),
		field.String("voucher_id").Immutable(),
	}
}

// Edges of the PublicationVoucher, with the foreign keys' names and
// ON DELETE CASCADE of the M2M join table.
func (PublicationVoucher) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("publication", Publication.Type).Field("publication_id").Unique().Required().Immutable().
			StorageKey(edge.Symbol("publication_vouchers_publication_id")).
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("voucher", Voucher.Type).Field("voucher_id").Unique().Required().Immutable().
			StorageKey(edge.Symbol("publication_vouchers_voucher_id")).
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the PublicationVoucher: the primary key leads with
// publication_id; voucher_id needs its own.
func (PublicationVoucher) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("voucher_id"),
	}
}
