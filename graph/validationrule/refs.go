package validationrule

// Refs lists the catalogue objects d names: in its item rules' {object,
// id} operands (nested included), in applicable_to and in bundle_rules. Plain id operands
// (product or SKU) are not listed: they may name either.
func (d Definition) Refs() (products, skus, collections []string) {
	if p, s, c, ok := d.compiledRefs(); ok {
		return p, s, c
	}
	seen := map[[2]string]bool{}
	add := func(t Target) {
		k := [2]string{t.Object, t.ID}
		if seen[k] {
			return
		}
		seen[k] = true
		switch t.Object {
		case ObjectProduct:
			products = append(products, t.ID)
		case ObjectSKU:
			skus = append(skus, t.ID)
		case ObjectCollection:
			collections = append(collections, t.ID)
		}
	}
	var walk func(map[string]Condition)
	walk = func(rules map[string]Condition) {
		for _, k := range sortedKeys(rules) {
			c := rules[k]
			for _, op := range sortedKeys(c.Conditions) {
				for _, x := range c.Conditions[op] {
					if t, ok := x.(Target); ok {
						add(t)
					}
				}
			}
			walk(c.Nested)
		}
	}
	walk(d.Rules)
	for _, t := range d.ApplicableTo.Included {
		add(t)
	}
	for _, t := range d.ApplicableTo.Excluded {
		add(t)
	}
	if d.Bundle != nil {
		for _, p := range d.Bundle.Parts {
			add(p.Target)
		}
	}
	return products, skus, collections
}

// Uses reports whether a top-level rule of d is named name.
func (d Definition) Uses(name string) bool {
	for _, c := range d.Rules {
		if c.Name == name {
			return true
		}
	}
	return false
}
