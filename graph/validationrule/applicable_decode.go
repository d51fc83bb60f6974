package validationrule

import "fmt"

// decodeApplicableTo reads {"included": [...], "excluded": [...],
// "included_all": bool}; other properties (e.g. total, data_ref) are ignored.
func decodeApplicableTo(m map[string]any) (ApplicableTo, error) {
	var a ApplicableTo
	switch v := m["included_all"].(type) {
	case nil:
	case bool:
		a.IncludedAll = v
	default:
		return ApplicableTo{}, errorf("applicable_to.included_all", "must be a boolean, got %s", describe(v))
	}
	for _, name := range []string{"included", "excluded"} {
		prop := "applicable_to." + name
		raw, ok := asList(m[name])
		if !ok {
			return ApplicableTo{}, errorf(prop, "must be an array, got %s", describe(m[name]))
		}
		var ts []Target // nil when empty, like the zero ApplicableTo
		for i, v := range raw {
			t, err := decodeTarget(fmt.Sprintf("%s[%d]", prop, i), v)
			if err != nil {
				return ApplicableTo{}, err
			}
			ts = append(ts, t)
		}
		if name == "included" {
			a.Included = ts
		} else {
			a.Excluded = ts
		}
	}
	return a, nil
}

// decodeTarget reads one applicable_to entry.
func decodeTarget(p string, v any) (Target, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return Target{}, errorf(p, "must be an object {\"object\", \"id\"}, got %s", describe(v))
	}
	var t Target
	for k, dst := range map[string]*string{"object": &t.Object, "id": &t.ID, "source_id": &t.SourceID,
		"product_id": &t.ProductID, "product_source_id": &t.ProductSourceID, "effect": &t.Effect, "target": &t.Unit} {
		switch x := obj[k].(type) {
		case nil:
		case string:
			*dst = x
		default:
			return Target{}, errorf(p+"."+k, "must be a string, got %s", describe(x))
		}
	}
	for k, dst := range t.limits() {
		if obj[k] == nil {
			continue
		}
		n, ok := toInt(obj[k])
		if !ok {
			return Target{}, errorf(p+"."+k, "must be an integer, got %s", describe(obj[k]))
		}
		*dst = n
	}
	if obj["price"] != nil {
		n, ok := toInt(obj["price"])
		if !ok {
			return Target{}, errorf(p+".price", "must be an integer (cents), got %s", describe(obj["price"]))
		}
		t.Price = &n
	}
	switch f := obj["price_formula"].(type) {
	case nil:
	case string:
		if f == "" {
			return Target{}, errorf(p+".price_formula", "must be a non-empty string (a formula)")
		}
		t.PriceFormula = f
	default:
		return Target{}, errorf(p+".price_formula", "must be a non-empty string (a formula), got %s", describe(f))
	}
	if err := decodeBudgets(p, &t, obj); err != nil {
		return Target{}, err
	}
	return t, t.validate(p)
}
