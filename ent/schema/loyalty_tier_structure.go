package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/lifecycle"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// TierStructure (lts_) is a v2 ladder of tiers over one card definition's
// points: POINT_BALANCE (the card's balance) or POINT_EARNED (points
// earned in a period). Its point_earned, expiration and downgrade settings
// are kept as given (validated by graph/loyalty).
type TierStructure struct{ ent.Schema }

// Mixin of the TierStructure.
func (TierStructure) Mixin() []ent.Mixin {
	return loyaltyMixins(pulid.PrefixTierStructure, ProjectMixin{})
}

// Fields of the TierStructure.
func (TierStructure) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("type").Immutable(),
		field.String("card_definition_id").Immutable(),
		field.String("status").Default("DRAFT"),
		field.JSON("point_earned", map[string]any{}).Optional(),
		field.JSON("expiration", map[string]any{}).Optional(),
		field.JSON("downgrade", map[string]any{}).Optional(),
		metadataField(),
	}
}

// Hooks of the TierStructure: status moves follow lifecycle.TierStructure.
func (TierStructure) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.TierStructure)} }

// Indexes of the TierStructure.
func (TierStructure) Indexes() []ent.Index {
	return []ent.Index{index.Fields("card_definition_id")}
}

// Annotations of the TierStructure: hand-written GraphQL type.
func (TierStructure) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// StructureTier (lt_) is one tier of a tier structure: a points range
// [min_points, max_points] (max open when null) that must not overlap
// another tier of the structure, or a segment.
type StructureTier struct{ ent.Schema }

// Mixin of the StructureTier.
func (StructureTier) Mixin() []ent.Mixin { return loyaltyMixins(pulid.PrefixTier, ProjectMixin{}) }

// Fields of the StructureTier.
func (StructureTier) Fields() []ent.Field {
	return []ent.Field{
		field.String("tier_structure_id").Immutable(),
		field.String("name").NotEmpty().MaxLen(200),
		field.String("qualification_type").Default("POINTS"),
		field.Int64("min_points").Optional().Nillable(),
		field.Int64("max_points").Optional().Nillable(),
		field.String("segment_id").Optional().Nillable(),
		field.String("downgrade_type").Default("INHERIT"),
		metadataField(),
	}
}

// Indexes of the StructureTier.
func (StructureTier) Indexes() []ent.Index {
	return []ent.Index{index.Fields("tier_structure_id", "min_points")}
}

// Annotations of the StructureTier: hand-written GraphQL type.
func (StructureTier) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// TierTransaction (lttx_) records a member's move between the tiers of a
// structure (UPGRADE, DOWNGRADE, or JOINED for the first tier), written by
// the points move that caused it.
type TierTransaction struct{ ent.Schema }

// Mixin of the TierTransaction.
func (TierTransaction) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixTierTx), ProjectMixin{}, TimeMixin{}}
}

// Fields of the TierTransaction.
func (TierTransaction) Fields() []ent.Field {
	return []ent.Field{
		field.String("member_id").Immutable(),
		field.String("program_id").Immutable(),
		field.String("tier_structure_id").Immutable(),
		field.String("from_tier_id").Optional().Nillable().Immutable(),
		field.String("to_tier_id").Optional().Nillable().Immutable(),
		field.String("type").Immutable(),
		field.Int64("points").Immutable(),
		field.String("card_transaction_id").Optional().Nillable().Immutable(),
	}
}

// Indexes of the TierTransaction.
func (TierTransaction) Indexes() []ent.Index {
	return []ent.Index{index.Fields("member_id", "created_at", "id")}
}

// Annotations of the TierTransaction: hand-written GraphQL type.
func (TierTransaction) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
