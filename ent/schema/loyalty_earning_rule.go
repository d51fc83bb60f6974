package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/lifecycle"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// EarningRule (lern_) says how members earn points (beta in the interface).
type EarningRule struct{ ent.Schema }

// Mixin of the EarningRule.
func (EarningRule) Mixin() []ent.Mixin { return loyaltyMixins(pulid.PrefixEarningRule, ProjectMixin{}) }

// Fields of the EarningRule.
func (EarningRule) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Annotations(entgql.OrderField("NAME")),
		statusField("EarningRuleStatus", "DRAFT", "DRAFT", "ACTIVE", "INACTIVE", "DELETED"),
		field.JSON("earnings", jsonfield.Earnings{}).Annotations(entgql.Type("Earnings")),
		field.JSON("trigger", &jsonfield.EarningTrigger{}).Annotations(entgql.Type("EarningTrigger")),
		field.JSON("error", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		field.JSON("validity_hours", &jsonfield.EarningValidityHours{}).Optional().
			Annotations(entgql.Type("EarningValidityHours")),
		field.JSON("trigger_limits", &jsonfield.TriggerLimits{}).Optional().Annotations(entgql.Type("TriggerLimits")),
		field.Time("start_date").Optional().Nillable(),
		field.Time("end_date").Optional().Nillable(),
		metadataField(),
	}
}

// Hooks of the EarningRule.
func (EarningRule) Hooks() []ent.Hook { return []ent.Hook{lifecycle.Hook(lifecycle.EarningRule)} }

// Annotations of the EarningRule.
func (EarningRule) Annotations() []schema.Annotation { return listed() }
