package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// ProgramReward (lprw_, internal) is a v2 reward's assignment to a program:
// its price in points on one card definition, its stock and how many were
// bought. The stock lives here, not on the reward (reference §11).
type ProgramReward struct{ ent.Schema }

// Mixin of the ProgramReward.
func (ProgramReward) Mixin() []ent.Mixin {
	return loyaltyMixins(pulid.PrefixProgramReward, ProjectMixin{})
}

// Fields of the ProgramReward.
func (ProgramReward) Fields() []ent.Field {
	return []ent.Field{
		field.String("program_id").Immutable(),
		field.String("reward_id").Immutable(),
		field.Int64("points").Min(1),
		field.String("card_definition_id"),
		field.Int64("stock").Min(0),
		field.Int64("redeemed").Default(0).Min(0),
		field.JSON("costs", []map[string]any{}).Optional(),
	}
}

// Indexes of the ProgramReward: a reward is assigned to a program once.
func (ProgramReward) Indexes() []ent.Index {
	return []ent.Index{index.Fields("program_id", "reward_id").Unique()}
}

// Annotations of the ProgramReward: hand-written GraphQL type.
func (ProgramReward) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// RewardPurchase (lrtx_) is a reward transaction: a PURCHASE that spent a
// card's points on a reward, or the REFUND of one (refund_of, unique, so a
// purchase is refunded at most once).
type RewardPurchase struct{ ent.Schema }

// Mixin of the RewardPurchase.
func (RewardPurchase) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixRewardTx), ProjectMixin{}, TimeMixin{}}
}

// Fields of the RewardPurchase.
func (RewardPurchase) Fields() []ent.Field {
	return []ent.Field{
		field.String("program_id").Immutable(),
		field.String("member_id").Immutable(),
		field.String("card_id").Immutable(),
		field.String("reward_id").Immutable(),
		field.String("card_transaction_id").Immutable(),
		field.String("type").Immutable(),
		field.String("status").Default("APPROVED"),
		field.Int64("points").Immutable(),
		field.String("refund_of").Optional().Nillable().Immutable(),
	}
}

// Indexes of the RewardPurchase.
func (RewardPurchase) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("member_id", "created_at", "id"),
		index.Fields("refund_of").Unique(),
	}
}

// Annotations of the RewardPurchase: hand-written GraphQL type.
func (RewardPurchase) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// LoyaltyActivity is an activity of a v2 program, card definition, earning
// rule, incentive (benefit) or tier structure: what changed, with a
// snapshot of the resource after the change. Its id carries the prefix of
// the resource kind (set by graph/loyalty).
type LoyaltyActivity struct{ ent.Schema }

// Mixin of the LoyaltyActivity.
func (LoyaltyActivity) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixLoyaltyActivity), ProjectMixin{}, TimeMixin{}}
}

// Fields of the LoyaltyActivity.
func (LoyaltyActivity) Fields() []ent.Field {
	return []ent.Field{
		field.String("resource_type").Immutable(),
		field.String("resource_id").Immutable(),
		field.String("type").Immutable(),
		field.JSON("data", map[string]any{}).Immutable(),
		field.String("group_id").Optional().Nillable().Immutable(),
		field.JSON("source", &jsonfield.ActivitySource{}).Optional().Immutable(),
	}
}

// Indexes of the LoyaltyActivity.
func (LoyaltyActivity) Indexes() []ent.Index {
	return []ent.Index{index.Fields("resource_id", "created_at", "id")}
}

// Annotations of the LoyaltyActivity: hand-written GraphQL type.
func (LoyaltyActivity) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
