package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/lifecycle"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Incentive (linc_) is a benefit earning rules hand out. Names are unique
// per project (unique index: concurrent creates cannot both win).
type Incentive struct{ ent.Schema }

// Mixin of the Incentive.
func (Incentive) Mixin() []ent.Mixin {
	return loyaltyMixins(pulid.PrefixIncentive, ProjectMixin{IndexedElsewhere: true})
}

// Fields of the Incentive.
func (Incentive) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Annotations(entgql.OrderField("NAME")),
		field.Enum("type").Values("POINTS", "POINTS_PROPORTIONAL", "MATERIAL", "DIGITAL").
			Annotations(entgql.Type("IncentiveType")),
		statusField("IncentiveStatus", "DRAFT", "DRAFT", "ACTIVE", "DELETED"),
		field.Int("stock").Min(0).Max(2147483647),
		field.JSON("points", &jsonfield.IncentivePoints{}).Optional().Annotations(entgql.Type("IncentivePoints")),
		field.JSON("points_proportional", &jsonfield.PointsProportional{}).Optional().
			Annotations(entgql.Type("PointsProportional")),
		field.JSON("material", &jsonfield.MaterialDetail{}).Optional().Annotations(entgql.Type("MaterialDetail")),
		field.JSON("digital", &jsonfield.DigitalDetail{}).Optional().Annotations(entgql.Type("DigitalDetail")),
	}
}

// Indexes of the Incentive.
func (Incentive) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "name").Unique()}
}

// Hooks of the Incentive.
func (Incentive) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.Incentive)} }

// Annotations of the Incentive.
func (Incentive) Annotations() []schema.Annotation { return listed() }

// CursorSecret holds the key that signs v2 list cursors: one row, created
// on first use, so every server process on the database signs alike.
type CursorSecret struct{ ent.Schema }

// Fields of the CursorSecret.
func (CursorSecret) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").NotEmpty().Immutable(),
		// Hex text, not bytes: the schema keeps no bytea columns (see
		// entdb's textArgs).
		field.String("secret").NotEmpty().Sensitive().Immutable(),
	}
}

// Annotations of the CursorSecret: not part of the graph.
func (CursorSecret) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
