package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// LoyaltyTier (ltr_) is a tier of a v1 loyalty program (a LOYALTY_PROGRAM
// campaign): an inclusive points range (no bound: open on that side) that
// does not overlap its program's other tiers, and mappings that change
// what the program's earning rules award (earning_rules: ern_… →
// {type: MULTIPLY, multiplier} | {type: CUSTOM, points}) and what rewards
// cost (rewards: rewa_… → mapping), kept as sent.
type LoyaltyTier struct{ ent.Schema }

// Mixin of the LoyaltyTier.
func (LoyaltyTier) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixLoyaltyTier, Length: 24}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the LoyaltyTier.
func (LoyaltyTier) Fields() []ent.Field {
	return []ent.Field{
		field.String("campaign_id").Immutable(),
		field.String("name").NotEmpty().MaxLen(200),
		field.Int64("points_from").Optional().Nillable(),
		field.Int64("points_to").Optional().Nillable(),
		field.JSON("earning_rules", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		field.JSON("rewards", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		field.JSON("metadata", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
	}
}

// Indexes of the LoyaltyTier: a program's tiers in creation order.
func (LoyaltyTier) Indexes() []ent.Index {
	return []ent.Index{index.Fields("campaign_id", "created_at")}
}

// Annotations of the LoyaltyTier.
func (LoyaltyTier) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
