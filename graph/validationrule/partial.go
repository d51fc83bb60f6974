package validationrule

// Partial checks for qualifications (graph/qualification): a rule is
// checked with some of its conditions left out, each left-out condition
// taken as holding, the way the real service's qualification omits rules
// it does not check (the audience-only scenario checks only the customer
// conditions; the per-customer count is never checked there).

// Omit says which conditions a partial check leaves out.
type Omit func(c Condition) bool

// CheckOmitting evaluates d against ctx like Check, but every condition
// for which omit reports true holds without being evaluated. It returns
// the violation (nil when the logic holds) and the keys of the rules that
// were left out, in key order.
func (d Definition) CheckOmitting(ctx Context, omit Omit) (*Violation, []string) {
	if !omitsAny(d.Rules, omit) {
		return d.Check(ctx), nil // the common case: nothing left out
	}
	var omitted []string
	rules := make(map[string]Condition, len(d.Rules))
	for _, k := range d.Keys() {
		c := d.Rules[k]
		if omit != nil && omit(c) {
			omitted = append(omitted, k)
			c = Condition{Name: c.Name, Conditions: nil, ErrorMessage: c.ErrorMessage}
		}
		rules[k] = c
	}
	if len(omitted) == 0 {
		return d.Check(ctx), nil
	}
	expr, err := d.logic()
	if err != nil {
		return d.violation("", KeyRedemptionRules), omitted
	}
	if expr == nil {
		return nil, omitted
	}
	keys := map[string]string{}
	ok, blame := expr.eval(func(k string) bool {
		c := rules[k]
		if c.Conditions == nil {
			return true // left out: holds
		}
		holds, key := c.eval(ctx)
		if !holds {
			keys[k] = key
		}
		return holds
	})
	if ok {
		return nil, omitted
	}
	key, failed := keys[blame]
	if !failed { // a rule that held, blamed through "not"
		k, _ := kindOf(d.Rules[blame].Name)
		key = k.failureKey()
	}
	return d.violation(blame, key), omitted
}

// IsCustomerCondition reports whether c reads only the customer: a
// segment, the customer's id or its metadata.
func IsCustomerCondition(c Condition) bool {
	k, _ := kindOf(c.Name)
	return k == kindSegment || k == kindCustomerID || k == kindCustomerMeta
}

// IsPerCustomerCount reports whether c counts the customer's redemptions
// (redemption.count.per_customer).
func IsPerCustomerCount(c Condition) bool {
	k, _ := kindOf(c.Name)
	return k == kindPerCustomer
}

// ProductTargets are the products and SKUs a condition requires in the
// order (order.items.any / product.id with $is or $in), as targets; a
// bare id matches a product or a SKU.
func (c Condition) ProductTargets() []Target {
	if k, _ := kindOf(c.Name); k != kindProduct {
		return nil
	}
	var out []Target
	for op, xs := range c.Conditions {
		if op != "$is" && op != "$in" {
			continue
		}
		for _, x := range xs {
			switch v := x.(type) {
			case Target:
				out = append(out, v)
			case string:
				out = append(out, Target{ID: v})
			}
		}
	}
	return out
}

// omitsAny reports whether omit leaves out one of rules.
func omitsAny(rules map[string]Condition, omit Omit) bool {
	if omit == nil {
		return false
	}
	for _, c := range rules {
		if omit(c) {
			return true
		}
	}
	return false
}
