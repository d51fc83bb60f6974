package validationrule

// DecodeBundleRules reads a stored or sent bundle_rules object: nil or
// {} (what a PUT with "bundle_rules": null leaves) is no bundle.
func DecodeBundleRules(m map[string]any) (*BundleRules, error) {
	if len(m) == 0 {
		return nil, nil
	}
	b, err := ParseBundleRules(m)
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// View is the result's bundle object (validations.json Bundle): quantity,
// limit, identified [{id, object, item_index, item_quantity}] and, when
// no bundle is complete, missing [{id, object, item_quantity}].
func (r BundleResult) View() map[string]any {
	identified := make([]map[string]any, 0, len(r.Identified))
	for _, l := range r.Identified {
		identified = append(identified, map[string]any{"id": l.ID, "object": l.Object, "item_index": l.Index, "item_quantity": l.Quantity})
	}
	v := map[string]any{"quantity": r.Quantity, "limit": r.Limit, "identified": identified}
	if len(r.Missing) > 0 {
		missing := make([]map[string]any, 0, len(r.Missing))
		for _, l := range r.Missing {
			missing = append(missing, map[string]any{"id": l.ID, "object": l.Object, "item_quantity": l.Quantity})
		}
		v["missing"] = missing
	}
	return v
}

// IdentifyBundles finds the bundles of every definition with
// bundle_rules in items; with several, the one with the fewest complete
// bundles (all must hold). ok is false when no definition has any.
func IdentifyBundles(defs []Definition, items []Item) (res BundleResult, ok bool) {
	for _, d := range defs {
		if d.Bundle == nil {
			continue
		}
		r := d.Bundle.Identify(items)
		if !ok || r.Quantity < res.Quantity {
			res, ok = r, true
		}
	}
	return res, ok
}

// BundleViolation is d's failure when its bundle_rules find no complete
// bundle in items: order_rules_violated with the rule set's error.message
// (nil: d has no bundle_rules, or a bundle is complete).
func (d Definition) BundleViolation(items []Item) *Violation {
	if d.Bundle == nil || d.Bundle.Identify(items).Quantity > 0 {
		return nil
	}
	return d.violation("", KeyOrderRules)
}
