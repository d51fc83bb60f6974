package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// PromotionTier (promo_…) is one level of a PROMOTION campaign: a discount
// with optional dates, validity windows and validation rules, applied
// without a code (REST /v1/promotions/tiers; graph/promotion). hierarchy
// orders the campaign's tiers. The summary counters are kept by the
// redemptions and rollbacks of the tier (graph/redemption), in their
// transaction.
type PromotionTier struct{ ent.Schema }

// Mixin of the PromotionTier: ids like the real service's (promo_ and 24
// alphanumerics).
func (PromotionTier) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixPromotionTier, Length: 24},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the PromotionTier.
func (PromotionTier) Fields() []ent.Field {
	return []ent.Field{
		field.String("campaign_id").Immutable(),
		field.String("name").NotEmpty().MaxLen(1000),
		field.String("banner").Optional().Nillable().MaxLen(5000),
		field.JSON("discount", &jsonfield.Discount{}).Optional().Annotations(entgql.Type("Discount")),
		field.Int("hierarchy").Default(1),
		field.Bool("active").Default(true),
		field.Time("start_date").Optional().Nillable(),
		field.Time("expiration_date").Optional().Nillable(),
		field.JSON("validity_timeframe", &jsonfield.ValidityTimeframe{}).Optional().
			Annotations(entgql.Type("ValidityTimeframe")),
		field.JSON("validity_day_of_week", []int{}).Optional(),
		field.JSON("validity_hours", &jsonfield.ValidityHours{}).Optional().
			Annotations(entgql.Type("ValidityHours")),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		field.String("category_id").Optional().Nillable(),
		// Summary counters (REST summary.redemptions / summary.orders).
		field.Int("redeemed_count").Default(0).NonNegative(),
		field.Int64("orders_amount").Default(0),
		field.Int64("orders_discount_amount").Default(0),
	}
}

// Edges of the PromotionTier: its campaign (the tiers go with it).
func (PromotionTier) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("campaign", Campaign.Type).Ref("promotion_tiers").Field("campaign_id").
			Unique().Required().Immutable().Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the PromotionTier: lists newest first per project, a
// campaign's tiers by hierarchy, and the active tiers newest first (the
// qualifications' candidates, graph/qualification: a request reads no
// disabled tier, however many there are).
func (PromotionTier) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "created_at", "id"),
		index.Fields("campaign_id", "hierarchy"),
		index.Fields("project_id", "created_at", "id").StorageKey("promotiontier_active_project_created").
			Annotations(entsql.IndexWhere("active")),
	}
}

// Annotations of the PromotionTier.
func (PromotionTier) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// PromotionStack (stack_…) is a named, ordered group of a PROMOTION
// campaign's tiers, redeemed as one redeemable.
type PromotionStack struct{ ent.Schema }

// Mixin of the PromotionStack.
func (PromotionStack) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixPromotionStack, Length: 24},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the PromotionStack.
func (PromotionStack) Fields() []ent.Field {
	return []ent.Field{
		field.String("campaign_id").Immutable(),
		field.String("name").NotEmpty().MaxLen(1000),
		// tier_ids in application order (tiers.ids).
		field.Strings("tier_ids"),
		field.String("hierarchy_mode").Default("MANUAL"),
		field.String("category_id").Optional().Nillable(),
	}
}

// Edges of the PromotionStack: its campaign (the stacks go with it).
func (PromotionStack) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("campaign", Campaign.Type).Ref("promotion_stacks").Field("campaign_id").
			Unique().Required().Immutable().Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the PromotionStack.
func (PromotionStack) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "created_at", "id"),
		index.Fields("campaign_id", "created_at"),
	}
}

// Annotations of the PromotionStack.
func (PromotionStack) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// promotionEdges are the Campaign's edges to its tiers and stacks, deleted
// with it.
func promotionEdges() []ent.Edge {
	return []ent.Edge{
		edge.To("promotion_tiers", PromotionTier.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
		edge.To("promotion_stacks", PromotionStack.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
	}
}
