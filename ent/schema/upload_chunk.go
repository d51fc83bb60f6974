package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UploadChunk is one piece of a file uploaded for an import job (a CSV of
// codes, customers, …), kept in the database so that any server process's
// worker can run the job (no shared disk) and a job resumed after a crash
// reads the same file again. The request stores the chunks in the
// transaction that creates the job; the job deletes them when it ends.
type UploadChunk struct{ ent.Schema }

// Mixin of the UploadChunk: chunks belong to their job's project.
func (UploadChunk) Mixin() []ent.Mixin {
	return []ent.Mixin{ProjectMixin{}}
}

// Fields of the UploadChunk.
func (UploadChunk) Fields() []ent.Field {
	return []ent.Field{
		// job_id is the async action that imports the file.
		field.String("job_id").NotEmpty().Immutable(),
		// seq orders the chunks of a file: 0, 1, 2, … without gaps.
		field.Int("seq").NonNegative().Immutable(),
		// data is UTF-8 text without NUL characters (invalid bytes and NUL
		// become U+FFFD), cut at a line end where one is near, never inside
		// a character. Text, not bytes: see entdb's textArgs.
		field.Text("data").Immutable(),
	}
}

// Indexes of the UploadChunk: one chunk per (job, seq).
func (UploadChunk) Indexes() []ent.Index {
	return []ent.Index{index.Fields("job_id", "seq").Unique()}
}

// Annotations of the UploadChunk: never part of the GraphQL schema.
func (UploadChunk) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
