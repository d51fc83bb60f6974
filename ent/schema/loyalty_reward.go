package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/lifecycle"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Reward (lrew_) is what members can get for points: a material item or a
// digital voucher.
type Reward struct{ ent.Schema }

// Mixin of the Reward.
func (Reward) Mixin() []ent.Mixin { return loyaltyMixins(pulid.PrefixReward, ProjectMixin{}) }

// Fields of the Reward.
func (Reward) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Annotations(entgql.OrderField("NAME")),
		field.Enum("type").Values("MATERIAL", "DIGITAL").Annotations(entgql.Type("RewardType")),
		statusField("RewardStatus", "DRAFT", "DRAFT", "ACTIVE", "INACTIVE", "DELETED"),
		field.JSON("material", &jsonfield.MaterialDetail{}).Optional().Annotations(entgql.Type("MaterialDetail")),
		field.JSON("digital", &jsonfield.DigitalDetail{}).Optional().Annotations(entgql.Type("DigitalDetail")),
		metadataField(),
	}
}

// Edges of the Reward.
func (Reward) Edges() []ent.Edge {
	return []ent.Edge{edge.To("activities", RewardActivity.Type).Annotations(entgql.RelayConnection())}
}

// Hooks of the Reward.
func (Reward) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.Reward)} }

// Annotations of the Reward.
func (Reward) Annotations() []schema.Annotation { return listed() }

// RewardActivity (larew_) records a change of a reward with a snapshot of it.
type RewardActivity struct{ ent.Schema }

// Mixin of the RewardActivity.
func (RewardActivity) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixRewardActivity), ProjectMixin{}, TimeMixin{}}
}

// Fields of the RewardActivity.
func (RewardActivity) Fields() []ent.Field {
	return []ent.Field{
		field.String("reward_id").Immutable(),
		field.String("type").Immutable(),
		field.JSON("data", map[string]any{}).Immutable().Annotations(entgql.Type("Map")),
		field.String("group_id").Optional().Nillable().Immutable(),
		field.JSON("source", &jsonfield.ActivitySource{}).Optional().Immutable().Annotations(entgql.Type("ActivitySource")),
	}
}

// Edges of the RewardActivity.
func (RewardActivity) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("reward", Reward.Type).Ref("activities").Field("reward_id").Unique().Required().Immutable(),
	}
}

// Indexes of the RewardActivity: the keyset of activity paging.
func (RewardActivity) Indexes() []ent.Index {
	return []ent.Index{index.Fields("reward_id", "created_at", "id")}
}

// Annotations of the RewardActivity.
func (RewardActivity) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
