package validationrule

// Nested rules of the order.items.* rules (reference §8.3): decoded with
// their own logic and evaluated per line, the aggregated ones over the
// matched lines.

// decodeNested reads an order.items.* rule's nested rules and their logic.
func decodeNested(prop string, m map[string]any, c *Condition) error {
	for _, k := range sortedKeys(m) {
		x := m[k]
		if k == "logic" {
			if x == nil {
				continue
			}
			s, ok := x.(string)
			if !ok {
				return errorf(prop+".logic", "must be a string, got %s", describe(x))
			}
			c.NestedLogic = s
			continue
		}
		if !isRuleKey(k) {
			return errorf(prop, "unexpected key %q (rule keys are positive integers; the only other key is \"logic\")", k)
		}
		if len(c.Nested) >= MaxRules {
			return errorf(prop, "at most %d nested rules are allowed", MaxRules)
		}
		n, err := decodeConditionIn(prop+"."+k, x, nestedPropertyNames)
		if err != nil {
			return err
		}
		if c.Nested == nil {
			c.Nested = map[string]Condition{}
		}
		c.Nested[k] = n
	}
	return nil
}

// nestedHolds evaluates c's nested rules for line it; the aggregated rules
// read the matched lines.
func (c Condition) nestedHolds(it Item, matched []Item) bool {
	if len(c.Nested) == 0 {
		return true
	}
	expr, err := compileLogic(c.NestedLogic, c.Nested)
	if err != nil {
		return false
	}
	ok, _ := expr.eval(func(key string) bool {
		n := c.Nested[key]
		nk, mdKey := nestedKindOf(n.Name)
		for op, xs := range n.Conditions {
			var holds bool
			switch nk {
			case kindNestedQuantity:
				holds = numeric(op, xs, it.Quantity)
			case kindNestedPrice:
				holds = numeric(op, xs, it.unitPrice())
			case kindNestedMeta:
				holds = metadata(op, xs, it.Metadata, mdKey)
			case kindNestedAggregatedQuantity, kindNestedAggregatedAmount:
				var total int64
				for _, m := range matched {
					if nk == kindNestedAggregatedQuantity {
						total += m.Quantity
					} else {
						total += m.Amount
					}
				}
				holds = numeric(op, xs, total)
			}
			if !holds {
				return false
			}
		}
		return true
	})
	return ok
}
