package validationrule

import (
	"fmt"
	"sort"
)

// UnitBudget is one persistent unit budget of an applicable_to entry
// (validation-rules.json product_*_quantity_limit): at most Limit item
// units discounted under the entry, counted over every redemption of the
// scope — the campaign or the promotion tier (for a voucher: the voucher),
// per customer when PerCustomer, per product of a collection entry when
// InCollection.
type UnitBudget struct {
	// Scope is ScopeCampaign or ScopeTier.
	Scope        string
	PerCustomer  bool
	InCollection bool
	// Limit is the static limit (HasLimit false: only a formula was given).
	Limit    int64
	HasLimit bool
	// Formula computes the limit per request (graph/formula; "" none). A
	// formula without a value for the request leaves Limit.
	Formula string
}

// Budget scopes.
const (
	ScopeCampaign = "campaign"
	ScopeTier     = "promotion_tier"
)

// Name is the budget's property name (without "_formula").
func (b UnitBudget) Name() string {
	n := "product_"
	if b.InCollection {
		n += "in_collection_"
	}
	if b.PerCustomer {
		n += "customer_"
	}
	return n + b.Scope + "_quantity_limit"
}

// budgetShapes are the eight budgets an entry may carry, in a fixed order.
var budgetShapes = func() []UnitBudget {
	var out []UnitBudget
	for _, inCol := range []bool{false, true} {
		for _, perCust := range []bool{false, true} {
			for _, scope := range []string{ScopeCampaign, ScopeTier} {
				out = append(out, UnitBudget{Scope: scope, PerCustomer: perCust, InCollection: inCol})
			}
		}
	}
	return out
}()

// decodeBudgets reads an entry's product_*_quantity_limit(_formula)
// properties; the in-collection ones only on a products_collection entry.
func decodeBudgets(p string, t *Target, obj map[string]any) error {
	for _, shape := range budgetShapes {
		b, name := shape, shape.Name()
		if v := obj[name]; v != nil {
			n, ok := toInt(v)
			if !ok || n < 0 || n > maxMoney {
				return errorf(p+"."+name, "must be an integer from 0 to %d, got %s", maxMoney, describe(v))
			}
			b.Limit, b.HasLimit = n, true
		}
		if v := obj[name+"_formula"]; v != nil {
			s, ok := v.(string)
			if !ok || s == "" {
				return errorf(p+"."+name+"_formula", "must be a non-empty string (a formula), got %s", describe(v))
			}
			b.Formula = s
		}
		if !b.HasLimit && b.Formula == "" {
			continue
		}
		if b.InCollection && t.Object != ObjectCollection {
			return errorf(p+"."+name, "applies to the products of a collection: only on a products_collection entry")
		}
		t.Budgets = append(t.Budgets, b)
	}
	sort.SliceStable(t.Budgets, func(i, j int) bool { return t.Budgets[i].Name() < t.Budgets[j].Name() })
	return nil
}

// budgetMap adds the entry's budgets to its JSON form.
func (t Target) budgetMap(m map[string]any) {
	for _, b := range t.Budgets {
		if b.HasLimit {
			m[b.Name()] = b.Limit
		}
		if b.Formula != "" {
			m[b.Name()+"_formula"] = b.Formula
		}
	}
}

// Formulas lists the budget and price formulas of every applicable_to
// entry (for the caller to check they parse), keyed by property path.
func (d Definition) Formulas() map[string]string {
	out := map[string]string{}
	for i, t := range d.ApplicableTo.Included {
		if t.PriceFormula != "" {
			out[fmt.Sprintf("applicable_to.included[%d].price_formula", i)] = t.PriceFormula
		}
		for _, b := range t.Budgets {
			if b.Formula != "" {
				out[fmt.Sprintf("applicable_to.included[%d].%s_formula", i, b.Name())] = b.Formula
			}
		}
	}
	return out
}
