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

// Card (lcrd_) holds a member's points in a program. member_id is
// null while the card is unassigned. balance is changed only together with
// a CardTransaction (graph/loyalty_points.go), so it always equals the sum
// of the card's transactions. It never goes below zero unless the card's
// definition has balance_settings.allow_negative (an admin debit may then
// take it below zero): graph/loyalty/points.go checks it under the card lock.
type Card struct{ ent.Schema }

// Mixin of the Card.
func (Card) Mixin() []ent.Mixin {
	return loyaltyMixins(pulid.PrefixCard, ProjectMixin{IndexedElsewhere: true})
}

// Fields of the Card.
func (Card) Fields() []ent.Field {
	return []ent.Field{
		field.String("program_id").Immutable(),
		field.String("card_definition_id").Optional().Nillable().Immutable(),
		field.String("member_id").Optional().Nillable(),
		// code is null when code generation failed.
		field.String("code").Optional().Nillable(),
		field.Int64("balance").Default(0).
			Annotations(entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)),
	}
}

// Edges of the Card.
func (Card) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("member", LoyaltyMember.Type).Ref("cards").Field("member_id").Unique(),
		edge.To("activities", CardActivity.Type).Annotations(entgql.RelayConnection()),
		edge.To("transactions", CardTransaction.Type).Annotations(entgql.RelayConnection()),
	}
}

// Indexes of the Card.
func (Card) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "code").Unique()}
}

// Annotations of the Card.
func (Card) Annotations() []schema.Annotation { return listed() }

// CardActivity (lacrd_) records something that happened to a card.
type CardActivity struct{ ent.Schema }

// Mixin of the CardActivity.
func (CardActivity) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixCardActivity), ProjectMixin{}, TimeMixin{}}
}

// CardActivityTypes are the interface's card activity types.
var CardActivityTypes = []string{
	"vl.card.created", "vl.card.assigned", "vl.card.unassigned",
	"vl.card.code_generation.succeeded", "vl.card.code_generation.failed",
	// Points spent on a reward and given back (graph/loyalty/programreward/reward_purchases.go;
	// the documents name no activity for these).
	"vl.card.reward_purchased", "vl.card.reward_refunded",
}

// Fields of the CardActivity.
func (CardActivity) Fields() []ent.Field {
	return []ent.Field{
		field.String("card_id").Immutable(),
		field.String("type").Immutable(),
		field.JSON("data", map[string]any{}).Immutable().Annotations(entgql.Type("Map")),
		field.String("group_id").Optional().Nillable().Immutable(),
		field.JSON("source", &jsonfield.ActivitySource{}).Optional().Immutable().Annotations(entgql.Type("ActivitySource")),
	}
}

// Edges of the CardActivity.
func (CardActivity) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("card", Card.Type).Ref("activities").Field("card_id").Unique().Required().Immutable(),
	}
}

// Indexes of the CardActivity: the keyset of activity paging.
func (CardActivity) Indexes() []ent.Index {
	return []ent.Index{index.Fields("card_id", "created_at", "id")}
}

// Annotations of the CardActivity.
func (CardActivity) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// CardTransaction (lctx_) is one points move on a card.
type CardTransaction struct{ ent.Schema }

// Mixin of the CardTransaction.
func (CardTransaction) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixCardTx), ProjectMixin{}, TimeMixin{}}
}

// Fields of the CardTransaction.
func (CardTransaction) Fields() []ent.Field {
	return []ent.Field{
		field.String("card_id").Immutable(),
		field.Enum("type").Values("POINTS_ADDITION", "POINTS_REMOVAL", "POINTS_SPENT_ON_REWARD", "POINTS_REFUNDED",
			// POINTS_EXPIRED: the daily points job (graph/points) expired a bucket.
			"POINTS_EXPIRED",
			// POINTS_SPENT_ON_ORDER: an order paid with points (graph/loyalty/payment/order_payments.go).
			"POINTS_SPENT_ON_ORDER",
			// POINTS_RETURNED: an order payment's points given back when its
			// order was canceled (graph/loyalty/refund/order_refunds.go).
			"POINTS_RETURNED").Immutable().
			Annotations(entgql.Type("CardTransactionType")),
		// amount is signed: negative for removals, so the sum of amounts is the balance.
		field.Int64("amount").Immutable(),
		field.Int64("balance").Immutable(),
		field.String("reason").Optional().Nillable().Immutable(),
		field.String("source_id").Optional().Nillable().Immutable(),
		// earning_rule_id names the rule that awarded the points (earning
		// only); trigger limits count a rule's awards per card from it.
		field.String("earning_rule_id").Optional().Nillable().Immutable(),
	}
}

// Edges of the CardTransaction.
func (CardTransaction) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("card", Card.Type).Ref("transactions").Field("card_id").Unique().Required().Immutable(),
	}
}

// Indexes of the CardTransaction.
func (CardTransaction) Indexes() []ent.Index {
	return []ent.Index{
		// project_id included (PostgreSQL): the capped totalCount of a
		// card's transactions is an index-only walk (every read filters by
		// the project).
		index.Fields("card_id", "created_at", "id").Annotations(entsql.IncludeColumns("project_id")),
		index.Fields("card_id", "earning_rule_id", "created_at"),
	}
}

// Annotations of the CardTransaction.
func (CardTransaction) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
