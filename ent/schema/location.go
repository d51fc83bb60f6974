package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Location is a project's geographic shape (a circle or a polygon) that
// rules refer to (graph/template owns the use cases; docs/locations.md).
type Location struct{ ent.Schema }

// Mixin of the Location.
func (Location) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixLocation, Length: 16, Ordered: true}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the Location.
func (Location) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(1000),
		// shape is {type: circle, format: distance, distance: {center, radius}}
		// or {type: polygon, format: geojson, geojson: {type: Polygon, coordinates}}.
		field.JSON("shape", map[string]any{}),
	}
}

// Annotations of the Location: GraphQL types are hand-written.
func (Location) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
