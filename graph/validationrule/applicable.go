package validationrule

import "fmt"

// Target is a product or SKU named by applicable_to or a product rule.
type Target struct {
	// Object is "product" or "sku".
	Object string `json:"object"`
	// ID is the product or SKU id.
	ID string `json:"id"`
}

// Target object values.
const (
	ObjectProduct = "product"
	ObjectSKU     = "sku"
)

// ApplicableTo limits which order items a discount may apply to.
type ApplicableTo struct {
	// Included lists the targets discounts apply to (empty: every item).
	Included []Target
	// Excluded lists the targets discounts never apply to.
	Excluded []Target
}

// Matches reports whether it is the target: a product target matches the
// item's ProductID (so every SKU line of that product), a sku target its
// SKUID. Empty ids never match. A target with another Object (only possible
// when built by hand) matches either id.
func (t Target) Matches(it Item) bool {
	if t.ID == "" {
		return false
	}
	switch t.Object {
	case ObjectProduct:
		return t.ID == it.ProductID
	case ObjectSKU:
		return t.ID == it.SKUID
	}
	return t.ID == it.ProductID || t.ID == it.SKUID
}

// Applies reports whether discounts may apply to it: never when it matches
// an excluded target; otherwise always when Included is empty, else only
// when it matches an included target.
func (a ApplicableTo) Applies(it Item) bool {
	for _, t := range a.Excluded {
		if t.Matches(it) {
			return false
		}
	}
	if len(a.Included) == 0 {
		return true
	}
	for _, t := range a.Included {
		if t.Matches(it) {
			return true
		}
	}
	return false
}

// Empty reports whether neither list has entries.
func (a ApplicableTo) Empty() bool { return len(a.Included) == 0 && len(a.Excluded) == 0 }

// Map returns the REST JSON form {"included": [...], "excluded": [...]}
// (lists are never null).
func (a ApplicableTo) Map() map[string]any {
	list := func(ts []Target) []any {
		out := make([]any, 0, len(ts))
		for _, t := range ts {
			out = append(out, map[string]any{"object": t.Object, "id": t.ID})
		}
		return out
	}
	return map[string]any{"included": list(a.Included), "excluded": list(a.Excluded)}
}

func (t Target) validate(prop string) error {
	if t.Object != ObjectProduct && t.Object != ObjectSKU {
		return errorf(prop+".object", "unsupported object %q (use \"product\" or \"sku\")", t.Object)
	}
	if t.ID == "" {
		return errorf(prop+".id", "required (a non-empty string; source_id is not supported)")
	}
	return nil
}

func (a ApplicableTo) validate() error {
	for _, l := range []struct {
		name string
		ts   []Target
	}{{"included", a.Included}, {"excluded", a.Excluded}} {
		for i, t := range l.ts {
			if err := t.validate(fmt.Sprintf("applicable_to.%s[%d]", l.name, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeApplicableTo reads {"included": [...], "excluded": [...]}; other
// properties (e.g. included_all, total) are ignored.
func decodeApplicableTo(m map[string]any) (ApplicableTo, error) {
	var a ApplicableTo
	for _, name := range []string{"included", "excluded"} {
		prop := "applicable_to." + name
		raw, ok := asList(m[name])
		if !ok {
			return ApplicableTo{}, errorf(prop, "must be an array, got %s", describe(m[name]))
		}
		var ts []Target // nil when empty, like the zero ApplicableTo
		for i, v := range raw {
			p := fmt.Sprintf("%s[%d]", prop, i)
			obj, ok := v.(map[string]any)
			if !ok {
				return ApplicableTo{}, errorf(p, "must be an object {\"object\", \"id\"}, got %s", describe(v))
			}
			id, _ := obj["id"].(string)
			o, _ := obj["object"].(string)
			t := Target{Object: o, ID: id}
			if err := t.validate(p); err != nil {
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
