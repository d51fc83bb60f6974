package schema

import (
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
)

// TimeMixin records creation time, and update time once the row changes
// (updated_at stays null until the first update, as the real service shows).
type TimeMixin struct{ mixin.Schema }

// Fields of the TimeMixin.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").
			Default(now).
			Immutable().
			Annotations(
				entgql.OrderField("CREATED_AT"),
				entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput),
			),
		field.Time("updated_at").
			Optional().
			Nillable().
			UpdateDefault(now).
			Annotations(
				entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput),
			),
	}
}

// now is the clock of every stored timestamp: UTC, millisecond precision
// (what the API shows), so a value reads back exactly as it was written on
// SQLite and PostgreSQL alike.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
