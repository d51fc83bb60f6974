package validationrule

import "slices"

// compiled is what checking a definition works out from its rules alone:
// the logic's tree, whether it reads the cart, the objects it names.
type compiled struct {
	expr      *node
	err       error
	readsCart bool
	// productMetadata: ReadsProductMetadata.
	productMetadata bool
	products        []string
	skus            []string
	cols            []string
}

// Compile returns d with its logic compiled and its cart needs and
// references worked out once, for a definition checked many times (the
// qualifications' tier snapshot). The result must not be changed
// afterwards (its Rules, Logic, ApplicableTo or Bundle): it would keep
// what was worked out from the rules before.
func (d Definition) Compile() Definition {
	d.compiled = nil
	expr, err := compileLogic(d.Logic, d.Rules)
	c := &compiled{expr: expr, err: err, readsCart: d.ReadsCart(), productMetadata: d.ReadsProductMetadata()}
	c.products, c.skus, c.cols = d.Refs()
	d.compiled = c
	return d
}

// logic is d's logic compiled (nil when there are no rules).
func (d Definition) logic() (*node, error) {
	if c := d.compiled; c != nil {
		return c.expr, c.err
	}
	return compileLogic(d.Logic, d.Rules)
}

// compiledRefs are Refs of a compiled definition (ok false: not compiled).
func (d Definition) compiledRefs() (products, skus, collections []string, ok bool) {
	c := d.compiled
	if c == nil {
		return nil, nil, nil, false
	}
	return slices.Clone(c.products), slices.Clone(c.skus), slices.Clone(c.cols), true
}
