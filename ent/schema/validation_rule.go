package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// ValidationRule (val_…) is a condition a voucher or campaign must meet to
// be redeemed (graph/validationrule checks it). rules, error,
// applicable_to and bundle_rules are stored as the REST API receives them.
type ValidationRule struct{ ent.Schema }

// Mixin of the ValidationRule.
func (ValidationRule) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixValidationRule, Length: 12}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the ValidationRule.
func (ValidationRule) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("type").Default("basic"),
		field.String("context_type").Default("global"),
		field.JSON("rules", map[string]any{}).Annotations(entgql.Type("Map")),
		field.JSON("error", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		field.JSON("applicable_to", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		// bundle_rules (validation-rules.json ValidationRuleBundleRules):
		// the products, SKUs or collections a cart must hold, counted as
		// bundles that multiply the discount (docs/promotions.md "Bundles").
		field.JSON("bundle_rules", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
	}
}

// Annotations of the ValidationRule.
func (ValidationRule) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// ValidationRuleAssignment (asgm_…) attaches a rule to a voucher or a campaign.
type ValidationRuleAssignment struct{ ent.Schema }

// Mixin of the ValidationRuleAssignment.
func (ValidationRuleAssignment) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixRuleAssignment, Length: 12}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the ValidationRuleAssignment.
func (ValidationRuleAssignment) Fields() []ent.Field {
	return []ent.Field{
		field.String("rule_id").Immutable(),
		field.Enum("related_object_type").Values("voucher", "campaign", "promotion_tier").Immutable().
			Annotations(entgql.Type("RuleAssignmentObject")),
		field.String("related_object_id").Immutable(),
	}
}

// Indexes of the ValidationRuleAssignment: a rule is assigned to an object once.
func (ValidationRuleAssignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "related_object_id", "rule_id").Unique(),
		index.Fields("rule_id"),
	}
}

// Annotations of the ValidationRuleAssignment.
func (ValidationRuleAssignment) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
