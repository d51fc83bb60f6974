package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// UnitBudgetUse records the item units one redemption discounted under an
// applicable_to entry's persistent unit budget (the reference's
// product_*_quantity_limit: per campaign, per tier, per customer, per
// product in a collection). The units a budget has used are the sum of its
// rows; a rollback deletes the redemption's rows (the units come back).
type UnitBudgetUse struct{ ent.Schema }

// Mixin of the UnitBudgetUse.
func (UnitBudgetUse) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixUnitBudgetUse, Length: 18, Hex: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the UnitBudgetUse.
func (UnitBudgetUse) Fields() []ent.Field {
	return []ent.Field{
		// redemption_id is the child redemption (r_…) that used the units.
		field.String("redemption_id").NotEmpty().Immutable(),
		// budget_key names the budget: scope, scope id, rule, entry (and
		// customer, product) — see graph/redemption/unit_budgets.go.
		field.String("budget_key").NotEmpty().MaxLen(500).Immutable(),
		field.Int64("units").NonNegative().Immutable(),
	}
}

// Indexes of the UnitBudgetUse.
func (UnitBudgetUse) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "budget_key"),
		index.Fields("redemption_id"),
	}
}

// Annotations of the UnitBudgetUse: not part of the graph.
func (UnitBudgetUse) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
