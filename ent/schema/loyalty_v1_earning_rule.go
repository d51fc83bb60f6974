package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// CampaignEarningRule (ern_) is an earning rule of a v1 loyalty program (a
// LOYALTY_PROGRAM campaign): one event (order.paid,
// customer.segment.entered, a custom event name or a tier event) and one
// loyalty formula (FIXED or PROPORTIONAL). The v2 area's rules (lern_,
// EarningRule) are separate rows (docs/loyalty.md).
type CampaignEarningRule struct{ ent.Schema }

// Mixin of the CampaignEarningRule.
func (CampaignEarningRule) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixCampaignEarningRule, Length: 24}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the CampaignEarningRule. The JSON objects are kept in the
// real service's shape (graph/loyaltyv1 checks them).
func (CampaignEarningRule) Fields() []ent.Field {
	jsonMap := func(name string) ent.Field {
		return field.JSON(name, map[string]any{}).Optional().Annotations(entgql.Type("Map"))
	}
	return []ent.Field{
		field.String("campaign_id").Immutable(),
		field.String("event").NotEmpty().MaxLen(300).Immutable(),
		field.JSON("loyalty", map[string]any{}).Annotations(entgql.Type("Map")),
		jsonMap("custom_event"),
		jsonMap("segment"),
		jsonMap("loyalty_tier"),
		jsonMap("pending_points"),
		jsonMap("expiration_rules"),
		jsonMap("source"),
		jsonMap("validity_timeframe"),
		field.JSON("validity_day_of_week", []int{}).Optional(),
		jsonMap("validity_hours"),
		field.Bool("active").Default(true),
		field.String("validation_rule_id").Optional().Nillable(),
		field.Time("start_date").Optional().Nillable(),
		field.Time("expiration_date").Optional().Nillable(),
		field.String("automation_id").Immutable(),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
	}
}

// Indexes of the CampaignEarningRule: a program's rules in creation order,
// and the rules an event fires.
func (CampaignEarningRule) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("campaign_id", "created_at"),
		index.Fields("event", "active"),
	}
}

// Annotations of the CampaignEarningRule.
func (CampaignEarningRule) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
