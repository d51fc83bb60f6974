package qualification

import (
	"github.com/promoengine/promoengine/graph/redemption"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// What each scenario (reference §5.2) reads and keeps.

// productRelation is how a PRODUCTS scenario relates a redeemable to the
// cart.
type productRelation int

const (
	noProductRelation productRelation = iota
	// discountsOrRequires: its discount targets a cart item or a rule
	// requires one (PRODUCTS).
	discountsOrRequires
	// discounts: its discount targets a cart item (PRODUCTS_DISCOUNT).
	discounts
)

// scenario says where a scenario's candidates come from and which pass.
type scenario struct {
	tiers, vouchers, stacks bool
	// generic adds the generic codes held by nobody (ALL).
	generic bool
	// campaigns adds the code campaigns of which the customer holds no
	// code (ALL, AUDIENCE_ONLY; campaigns.go).
	campaigns bool
	// omit leaves rule conditions out (nil: every rule is checked).
	omit rules.Omit
	// applicable: the discount must apply to the cart as it is.
	applicable bool
	products   productRelation
}

// leaveOutAll leaves every condition out: the rules are not checked.
func leaveOutAll(rules.Condition) bool { return true }

// leaveOutAllButCustomer checks only the customer conditions.
func leaveOutAllButCustomer(c rules.Condition) bool { return !rules.IsCustomerCondition(c) }

var scenarios = map[string]scenario{
	ScenarioAll:                   {tiers: true, vouchers: true, generic: true, campaigns: true, applicable: true},
	ScenarioCustomerWallet:        {vouchers: true, applicable: true},
	ScenarioAudienceOnly:          {tiers: true, vouchers: true, campaigns: true, omit: leaveOutAllButCustomer},
	ScenarioProducts:              {tiers: true, vouchers: true, omit: leaveOutAll, products: discountsOrRequires},
	ScenarioProductsDiscount:      {tiers: true, vouchers: true, omit: leaveOutAll, products: discounts},
	ScenarioProductsByCustomer:    {tiers: true, vouchers: true, omit: leaveOutAllButCustomer, products: discountsOrRequires},
	ScenarioProductsDiscountByCus: {tiers: true, vouchers: true, omit: leaveOutAllButCustomer, products: discounts},
	ScenarioPromotionStacks:       {stacks: true},
}

// keeps reports whether a checked redeemable belongs to the scenario's
// answer for the cart.
func (s scenario) keeps(q *redemption.Qualified, cart []rules.Item) bool {
	if q.FailureKey != "" || (s.applicable && !q.Applicable) {
		return false
	}
	switch s.products {
	case discountsOrRequires:
		return touchesCart(discountTargets(q), cart) || touchesCart(requiredTargets(q), cart)
	case discounts:
		return touchesCart(discountTargets(q), cart)
	}
	return true
}

// discountTargets are the products and SKUs the rules' applicable_to
// limit the discount to.
func discountTargets(q *redemption.Qualified) []rules.Target {
	var out []rules.Target
	for _, d := range q.Rules {
		out = append(out, d.ApplicableTo.Included...)
	}
	return out
}

// requiredTargets are the products and SKUs the rules require in the order.
func requiredTargets(q *redemption.Qualified) []rules.Target {
	var out []rules.Target
	for _, d := range q.Rules {
		for _, c := range d.Rules {
			out = append(out, c.ProductTargets()...)
		}
	}
	return out
}

// touchesCart reports whether a target matches a cart line.
func touchesCart(targets []rules.Target, cart []rules.Item) bool {
	for _, t := range targets {
		for _, it := range cart {
			if t.Matches(it) {
				return true
			}
		}
	}
	return false
}
