package schema

import (
	"errors"
	"unicode/utf8"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IdempotencyKey remembers a POST sent with an Idempotency-Key header and
// its answer, so a retry with the same key, credential and body gets the
// first answer instead of acting again (rest/idempotency.go,
// docs/idempotency.md). The unique index on (project_id, credential, key)
// decides which of several concurrent requests acts, in every server
// process on the database; the others read the row.
type IdempotencyKey struct{ ent.Schema }

// Mixin of the IdempotencyKey: keys belong to the project that sent them.
func (IdempotencyKey) Mixin() []ent.Mixin {
	return []ent.Mixin{ProjectMixin{IndexedElsewhere: true}}
}

// Fields of the IdempotencyKey.
func (IdempotencyKey) Fields() []ent.Field {
	return []ent.Field{
		// credential names the application key that sent the request (for
		// an OAuth token, the key that issued it): an id, never a secret.
		field.String("credential").NotEmpty().MaxLen(200).Immutable(),
		// key is at most 255 characters (not bytes: MaxLen counts bytes).
		field.String("key").NotEmpty().Immutable().Validate(func(k string) error {
			if utf8.RuneCountInString(k) > 255 {
				return errors.New("idempotency key longer than 255 characters")
			}
			return nil
		}),
		// method and path (with query) of the first request, for diagnosis.
		field.String("method").NotEmpty().MaxLen(16).Immutable(),
		field.String("path").NotEmpty().MaxLen(2048).Immutable(),
		// request_hash is the hex SHA-256 of method, path, query and body.
		field.String("request_hash").NotEmpty().MaxLen(64).Immutable(),
		field.Enum("state").Values("IN_PROGRESS", "DONE").Default("IN_PROGRESS"),
		// lock_id names the request that holds an IN_PROGRESS row; only
		// it may finish or release the row, and a request that takes over
		// an expired lease gets a new one.
		field.String("lock_id").NotEmpty().MaxLen(32),
		// locked_until is the lease of an IN_PROGRESS row: after it, the
		// key is taken over (the request that held it is presumed dead).
		field.Time("locked_until"),
		field.Int("response_status").Optional().Nillable(),
		field.String("response_content_type").Optional().MaxLen(255),
		// response_body is text, not bytes (no bytea columns, see entdb's
		// textArgs); only valid UTF-8 responses are stored.
		field.Text("response_body").Optional(),
		field.Time("created_at").Default(now).Immutable(),
		// expires_at is 24 hours after creation; an expired row counts as
		// absent and is deleted.
		field.Time("expires_at"),
	}
}

// Indexes of the IdempotencyKey.
func (IdempotencyKey) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "credential", "key").Unique(),
		// The sweep of expired rows across projects.
		index.Fields("expires_at"),
	}
}

// Annotations of the IdempotencyKey: stored responses never appear in
// GraphQL.
func (IdempotencyKey) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "idempotency_keys"},
		entgql.Skip(entgql.SkipAll),
	}
}
