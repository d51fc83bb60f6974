package schema

import (
	"encoding/json"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// BinEntry records a campaign, voucher, product or SKU deleted without
// force: the resource's rows are deleted as with force, and the entry keeps
// what GET /v1/trash-bin shows and keeps the resource's name (campaign
// name, voucher code, product or SKU source_id) reserved until the entry
// is deleted or purged (docs/trash-bin.md).
type BinEntry struct{ ent.Schema }

// Mixin of the BinEntry.
func (BinEntry) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixBinEntry, Length: 4, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the BinEntry.
func (BinEntry) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("resource_type").Values("campaign", "voucher", "product", "sku").Immutable(),
		field.String("resource_id").NotEmpty().Immutable(),
		// resource_name is the campaign's name, the voucher's code, the
		// product's or SKU's name (its source_id or id when it has none).
		field.String("resource_name").Immutable(),
		// reserved_name is what stays taken while the entry exists: the
		// campaign name, voucher code or product/SKU source_id (null when
		// the resource had none).
		field.String("reserved_name").Optional().Nillable().Immutable(),
		field.String("resource_parent_id").Optional().Nillable().Immutable(),
		field.String("deleted_by_user_id").Optional().Nillable().Immutable(),
		// parent_entry_id marks an entry that only keeps a name reserved
		// for another entry: the SKUs of a binned product (their
		// source_ids). It is not listed and goes with its parent entry.
		field.String("parent_entry_id").Optional().Nillable().Immutable(),
		// snapshot is what the delete removed, as JSON (graph/bin
		// restore.go): the voucher, product (with its SKUs) or SKU rows a
		// restore re-creates, or a campaign's row with what hangs on it
		// (its vouchers are records). Null for hidden entries.
		// A campaign's snapshot is written by its deletion job's last step.
		field.JSON("snapshot", json.RawMessage{}).Optional(),
		// state is BINNED, DELETING while a campaign's deletion job still
		// runs (its vouchers become records), or RESTORING while a
		// campaign's restore job re-creates its vouchers.
		field.Enum("state").Values("BINNED", "DELETING", "RESTORING").Default("BINNED"),
	}
}

// Edges of the BinEntry: the vouchers of a binned campaign.
func (BinEntry) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("records", BinRecord.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the BinEntry: the project's entries by id (the list's order
// and cursor), the reserved names, and the purge by age.
func (BinEntry) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "id"),
		index.Fields("project_id", "resource_type", "reserved_name"),
		index.Fields("created_at"),
	}
}

// Annotations of the BinEntry: GraphQL types are hand-written
// (graph/schema/bin.graphqls).
func (BinEntry) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
