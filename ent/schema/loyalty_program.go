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
	"github.com/promoengine/promoengine/ent/schema/lifecycle"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// LoyaltyProgram is a v2 loyalty program (lprg_): members join it and get
// cards of its card definitions.
type LoyaltyProgram struct{ ent.Schema }

// Mixin of the LoyaltyProgram.
func (LoyaltyProgram) Mixin() []ent.Mixin { return loyaltyMixins(pulid.PrefixProgram, ProjectMixin{}) }

// Fields of the LoyaltyProgram.
func (LoyaltyProgram) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Annotations(entgql.OrderField("NAME")),
		statusField("LoyaltyProgramStatus", "DRAFT", "DRAFT", "ACTIVE", "INACTIVE"),
		field.Time("start_date").Optional().Nillable(),
		field.Time("end_date").Optional().Nillable(),
		// card_definition_ids are the card definitions a new member gets cards of.
		field.Strings("card_definition_ids").Default([]string{}),
		// Earning rules and tier structures assigned to the program
		// (POST …/programs/{id}/earning-rules/batch, …/tier-structures/batch).
		field.Strings("earning_rule_ids").Optional(),
		field.Strings("tier_structure_ids").Optional(),
		metadataField(),
	}
}

// Edges of the LoyaltyProgram.
func (LoyaltyProgram) Edges() []ent.Edge {
	return []ent.Edge{edge.To("members", LoyaltyMember.Type).Annotations(entgql.RelayConnection())}
}

// Hooks of the LoyaltyProgram.
func (LoyaltyProgram) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.Program)} }

// Annotations of the LoyaltyProgram.
func (LoyaltyProgram) Annotations() []schema.Annotation { return listed() }

// CardDefinition (lcdef_) says how a program's cards look: their code
// configuration.
type CardDefinition struct{ ent.Schema }

// Mixin of the CardDefinition.
func (CardDefinition) Mixin() []ent.Mixin {
	return loyaltyMixins(pulid.PrefixCardDefinition, ProjectMixin{})
}

// Fields of the CardDefinition.
func (CardDefinition) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Annotations(entgql.OrderField("NAME")),
		field.String("type").Default("INDIVIDUAL"),
		statusField("CardDefinitionStatus", "DRAFT", "DRAFT", "ACTIVE"),
		field.JSON("code_config", &jsonfield.CodeConfig{}).Annotations(entgql.Type("CodeConfig")),
		metadataField(),
		// pay_with_points: null is NO_PAYMENTS (graph/loyalty/payment/order_payments.go).
		field.JSON("pay_with_points", &jsonfield.PayWithPoints{}).Optional().Annotations(entgql.Skip()),
		// pending_points: null is IMMEDIATE (graph/loyalty/card_pending.go).
		field.JSON("pending_points", &jsonfield.PendingPoints{}).Optional().Annotations(entgql.Skip()),
		// settings: points_expiration, earning/spending limits, refunds and
		// balance_settings; null members are their defaults (graph/loyalty/card_settings.go).
		field.JSON("settings", &jsonfield.CardSettings{}).Optional().Annotations(entgql.Skip()),
	}
}

// Hooks of the CardDefinition.
func (CardDefinition) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.CardDefinition)} }

// Annotations of the CardDefinition.
func (CardDefinition) Annotations() []schema.Annotation { return listed() }

// LoyaltyMember (lmbr_) is a customer enrolled in a program.
type LoyaltyMember struct{ ent.Schema }

// Mixin of the LoyaltyMember.
func (LoyaltyMember) Mixin() []ent.Mixin { return loyaltyMixins(pulid.PrefixMember, ProjectMixin{}) }

// Fields of the LoyaltyMember.
func (LoyaltyMember) Fields() []ent.Field {
	return []ent.Field{
		field.String("program_id").Immutable(),
		field.String("customer_id").Immutable(),
		statusField("LoyaltyMemberStatus", "ACTIVE", "ACTIVE", "INACTIVE"),
		metadataField(),
	}
}

// Edges of the LoyaltyMember.
func (LoyaltyMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("program", LoyaltyProgram.Type).Ref("members").Field("program_id").Unique().Required().Immutable(),
		edge.To("cards", Card.Type),
	}
}

// Indexes of the LoyaltyMember: a customer joins a program once; a
// program's members in created_at order (GET /v2/…/programs/{id}/members
// pages by (created_at, id)); a customer's memberships.
func (LoyaltyMember) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("program_id", "customer_id").Unique(),
		index.Fields("program_id", "created_at", "id").Annotations(entsql.IncludeColumns("project_id")),
		index.Fields("customer_id"),
	}
}

// Hooks of the LoyaltyMember.
func (LoyaltyMember) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.Member)} }

// Annotations of the LoyaltyMember.
func (LoyaltyMember) Annotations() []schema.Annotation { return listed() }
