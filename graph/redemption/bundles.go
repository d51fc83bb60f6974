package redemption

import (
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// Bundles (docs/promotions.md "Bundles"): a redeemable whose rule sets
// have bundle_rules needs a complete bundle in the cart (rules.go; a
// qualification only when its scenario checks item rules), its AMOUNT,
// PERCENT and UNIT discount is multiplied by the bundles found
// (discount.PerBundles), and its result shows result.bundle.

// identifyBundle records what s's bundle_rules find in items (nothing
// when no rule set of s has any).
func (s *redeemableState) identifyBundle(items []validationrule.Item) {
	s.bundle = nil
	if res, ok := validationrule.IdentifyBundles(s.rules, items); ok {
		s.bundle = &res
	}
}

// candidateOf is s's stacking candidate (formulaCandidate: with its
// formulas evaluated; withPriceFormulas: its entries' price formulas)
// with its discount multiplied by the bundles found.
func (e *evaluation) candidateOf(s *redeemableState) discount.Candidate {
	c := e.withPriceFormulas(s, e.formulaCandidate(s)) // formulas.go, price_formulas.go
	if s.bundle != nil && c.Discount != nil {
		d := c.Discount.PerBundles(s.bundle.Quantity)
		c.Discount = &d
	}
	return c
}

// applicableResult is result of an APPLICABLE redeemable (discountResult)
// with its bundle.
func (e *evaluation) applicableResult(s *redeemableState, out discount.Outcome) map[string]any {
	return s.withBundle(e.discountResult(s, out)) // view.go
}

// withBundle adds result.bundle to a result when s has bundle_rules.
func (s *redeemableState) withBundle(result map[string]any) map[string]any {
	if s.bundle != nil {
		result["bundle"] = s.bundle.View()
	}
	return result
}
