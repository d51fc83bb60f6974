package campaign

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/formula"
)

// checkFormulas refuses a discount whose formulas do not parse (graph/
// formula: the language, its variables and functions, its bounds), so a
// stored formula can always be evaluated; prop names the discount.
func checkFormulas(prop string, d *jsonfield.Discount) error {
	for _, f := range []struct {
		name string
		src  *string
	}{{"amount_off_formula", d.AmountOffFormula}, {"percent_off_formula", d.PercentOffFormula},
		{"unit_off_formula", d.UnitOffFormula}, {"fixed_amount_formula", d.FixedAmountFormula}} {
		if f.src == nil {
			continue
		}
		if _, err := formula.Parse(*f.src); err != nil {
			return apperr.InvalidPayload("Property %s.%s is not a valid formula: %v", prop, f.name, err)
		}
	}
	return nil
}
