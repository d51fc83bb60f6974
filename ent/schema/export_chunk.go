package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ExportChunk is one piece of an export's CSV file, which lives in the
// database so that any server process can serve any download (no shared
// disk). The export job writes the chunks in order, each in the
// transaction that records the job's progress, so a resumed job continues
// after the last chunk with no row missing or repeated. A download streams
// the chunks of a DONE export by seq; chunks of an export that is not DONE
// are never served, and those of a failed export are deleted.
type ExportChunk struct{ ent.Schema }

// Mixin of the ExportChunk: chunks belong to their export's project.
func (ExportChunk) Mixin() []ent.Mixin {
	return []ent.Mixin{ProjectMixin{}}
}

// Fields of the ExportChunk.
func (ExportChunk) Fields() []ent.Field {
	return []ent.Field{
		field.String("export_id").NotEmpty().Immutable(),
		// seq orders the chunks of an export: 0, 1, 2, … without gaps.
		field.Int("seq").NonNegative().Immutable(),
		// data is whole CSV lines (the header starts chunk 0), UTF-8 text
		// without NUL characters (PostgreSQL text cannot hold them; the
		// export writes U+FFFD instead). Text, not bytes: see entdb's
		// textArgs.
		field.Text("data").Immutable(),
		// byte_offset is the position of data in the file, size its length
		// in bytes.
		field.Int64("byte_offset").NonNegative().Immutable(),
		field.Int("size").NonNegative().Immutable(),
		// rows counts the data rows of the file up to the end of this chunk.
		field.Int("rows").NonNegative().Immutable(),
		// last_created_at and last_id are the keyset position of the chunk's
		// last row, where a resumed job continues; null for a chunk without
		// rows (an empty export's header).
		field.Time("last_created_at").Optional().Nillable().Immutable(),
		field.String("last_id").Optional().Nillable().Immutable(),
	}
}

// Indexes of the ExportChunk: one chunk per (export, seq).
func (ExportChunk) Indexes() []ent.Index {
	return []ent.Index{index.Fields("export_id", "seq").Unique()}
}

// Annotations of the ExportChunk: never part of the GraphQL schema.
func (ExportChunk) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
