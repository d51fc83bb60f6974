package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// V1Reward (rew_) is a reward of the v1 API (/v1/rewards): CAMPAIGN (a
// coupon, gift credits or loyalty points from another campaign), COIN
// (paying with points) or MATERIAL (a product, with an optional stock).
// The v2 area's rewards (lrew_) are another entity: the real service keeps
// the two generations apart (docs/loyalty.md).
type V1Reward struct{ ent.Schema }

// Mixin of the V1Reward.
func (V1Reward) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixRewardV1, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the V1Reward. parameters is the reward's parameters object as
// the API shows it; campaign_id and product_id repeat what it names, for
// look-ups.
func (V1Reward) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		// CAMPAIGN, COIN or MATERIAL (checked by graph/reward).
		field.String("type").Immutable(),
		field.JSON("parameters", map[string]any{}).Default(map[string]any{}),
		field.Int64("stock").Optional().Nillable(),
		field.Int64("redeemed").Default(0),
		field.JSON("attributes", map[string]any{}).Default(map[string]any{}),
		field.JSON("metadata", map[string]any{}).Optional(),
		field.String("campaign_id").Optional().Nillable(),
		field.String("product_id").Optional().Nillable(),
	}
}

// Indexes of the V1Reward: the newest-first page of a project.
func (V1Reward) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at", "id")}
}

// Annotations of the V1Reward: GraphQL types are hand-written
// (graph/schema/rewards.graphqls).
func (V1Reward) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("v1_rewards"), entgql.Skip(entgql.SkipAll)}
}

// V1RewardAssignment (rewa_) assigns a v1 reward to a loyalty or referral
// campaign with its price in points (none for COIN rewards). One per
// reward and campaign.
type V1RewardAssignment struct{ ent.Schema }

// Mixin of the V1RewardAssignment.
func (V1RewardAssignment) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixRewardAssignment, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the V1RewardAssignment.
func (V1RewardAssignment) Fields() []ent.Field {
	return []ent.Field{
		field.String("reward_id").Immutable(),
		field.String("campaign_id").Immutable(),
		field.String("related_object_type").Default("campaign").Immutable(),
		field.Int64("points").Optional().Nillable(),
		field.Bool("auto_redeem").Default(false),
		field.Strings("validation_rules").Optional(),
	}
}

// Indexes of the V1RewardAssignment: one per (reward, campaign); pages per
// reward and per campaign.
func (V1RewardAssignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "reward_id", "campaign_id").Unique(),
		index.Fields("project_id", "campaign_id", "created_at"),
	}
}

// Annotations of the V1RewardAssignment.
func (V1RewardAssignment) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("v1_reward_assignments"), entgql.Skip(entgql.SkipAll)}
}
