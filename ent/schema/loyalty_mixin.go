package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// loyaltyID is the ID mixin of the v2 loyalty entities: prefix + 18 hex.
func loyaltyID(prefix string) IDMixin { return IDMixin{Prefix: prefix, Length: 18, Hex: true} }

// activityID is the ID mixin of activities and transactions: ordered, so
// records of one request keep their order when created_at ties.
func activityID(prefix string) IDMixin { return IDMixin{Prefix: prefix, Length: 6, Ordered: true} }

// loyaltyMixins are the mixins every v2 loyalty entity has; project is
// ProjectMixin{IndexedElsewhere: true} when another index starts with project_id.
func loyaltyMixins(prefix string, project ProjectMixin) []ent.Mixin {
	return []ent.Mixin{loyaltyID(prefix), project, TimeMixin{}}
}

// statusField is a status enum with an explicit GraphQL enum name.
func statusField(gqlName, def string, values ...string) ent.Field {
	return field.Enum("status").Values(values...).Default(def).
		Annotations(entgql.Type(gqlName), entgql.OrderField("STATUS"))
}

// metadataField is the free key/value object every loyalty entity carries.
func metadataField() ent.Field {
	return field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map"))
}

// listed exposes an entity as a top-level GraphQL connection.
func listed() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection()}
}
