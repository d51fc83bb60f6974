package schema

import (
	"encoding/json"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// BinRecord keeps one voucher of a campaign deleted without force: the
// CAMPAIGN.DELETE job writes it in the same transaction that deletes the
// voucher, and a restore of the campaign's bin entry re-creates the voucher
// from it and deletes it in one transaction (graph/bin, docs/trash-bin.md).
// Its code stays reserved meanwhile. Records go with their entry (a delete
// for good or the purge cascades).
type BinRecord struct{ ent.Schema }

// Mixin of the BinRecord.
func (BinRecord) Mixin() []ent.Mixin {
	return []ent.Mixin{ProjectMixin{IndexedElsewhere: true}}
}

// Fields of the BinRecord.
func (BinRecord) Fields() []ent.Field {
	return []ent.Field{
		// id is the deleted voucher's id (at most one record per voucher).
		field.String("id").NotEmpty().Immutable(),
		field.String("entry_id").Immutable(),
		// code is the voucher's code, reserved while the record exists.
		field.String("code").Immutable(),
		// snapshot is the voucher with its rule assignments, as a single
		// voucher's bin entry keeps them (graph/bin snapshot.go).
		field.JSON("snapshot", json.RawMessage{}).Immutable(),
	}
}

// Edges of the BinRecord.
func (BinRecord) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("entry", BinEntry.Type).Ref("records").Field("entry_id").Unique().Required().Immutable(),
	}
}

// Indexes of the BinRecord: an entry's records in id order (the restore's
// batches) and the reserved codes.
func (BinRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("entry_id", "id"),
		index.Fields("project_id", "code"),
	}
}

// Annotations of the BinRecord: not in the graph.
func (BinRecord) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
