package validationrule

import "fmt"

// Target is a product, SKU or product collection named by applicable_to
// or a product rule, with the application settings of an applicable_to
// entry (reference §7.2–§7.3).
type Target struct {
	// Object is "product", "sku" or "products_collection".
	Object string `json:"object"`
	// ID is the product, SKU or collection id.
	ID string `json:"id"`

	// Entry settings (applicable_to only; zero when not given).

	// SourceID, ProductID and ProductSourceID are echoed as sent.
	SourceID, ProductID, ProductSourceID string
	// Effect picks the resources: APPLY_TO_EVERY (default),
	// APPLY_TO_CHEAPEST, APPLY_TO_MOST_EXPENSIVE, APPLY_FROM_CHEAPEST,
	// APPLY_FROM_MOST_EXPENSIVE.
	Effect string
	// Unit is "ITEM" (default: resources are lines) or "UNIT".
	Unit string
	// Price is the new unit price of a FIXED discount (nil: not given).
	Price *int64
	// PriceFormula computes Price per line ("": none; Price is then the
	// fallback when it has no value; docs/promotions.md "Discount formulas").
	PriceFormula string
	// Caps (0: none).
	QuantityLimit, AggregatedQuantityLimit, AmountLimit, AggregatedAmountLimit int64
	// SkipInitially and Repeat pick the resources after sorting.
	SkipInitially, Repeat int64
	// Budgets are the entry's persistent unit budgets (budgets.go).
	Budgets []UnitBudget
}

// Target object values.
const (
	ObjectProduct    = "product"
	ObjectSKU        = "sku"
	ObjectCollection = "products_collection"
)

// ApplicableTo limits which order items a discount may apply to.
type ApplicableTo struct {
	// Included lists the targets discounts apply to (empty: every item).
	Included []Target
	// Excluded lists the targets discounts never apply to.
	Excluded []Target
	// IncludedAll: every item is included (as an empty Included).
	IncludedAll bool
}

// Matches reports whether it is the target: a product target matches the
// item's product (so every SKU line of that product), a sku target its
// SKU, a collection target the items in that collection; ids compare with
// the item's aliases too. Empty ids never match. A target with another
// Object (only possible when built by hand) matches either id.
func (t Target) Matches(it Item) bool {
	if t.ID == "" {
		return false
	}
	in := func(id string, aliases []string) bool {
		if t.ID == id {
			return true
		}
		for _, a := range aliases {
			if a == t.ID {
				return true
			}
		}
		return false
	}
	switch t.Object {
	case ObjectProduct:
		return in(it.ProductID, it.ProductAliases)
	case ObjectSKU:
		return in(it.SKUID, it.SKUAliases)
	case ObjectCollection:
		return in("", it.Collections)
	}
	return in(it.ProductID, it.ProductAliases) || in(it.SKUID, it.SKUAliases)
}

// Applies reports whether discounts may apply to it: never when it matches
// an excluded target; otherwise always when Included is empty, else only
// when it matches an included target.
func (a ApplicableTo) Applies(it Item) bool {
	return !a.excludes(it) && (len(a.Included) == 0 || a.IncludedBy(it) >= 0)
}

// excludes reports whether an excluded target matches it.
func (a ApplicableTo) excludes(it Item) bool {
	for _, t := range a.Excluded {
		if t.Matches(it) {
			return true
		}
	}
	return false
}

// IncludedBy returns the index of the first included target matching it
// and matched by no excluded one, or -1.
func (a ApplicableTo) IncludedBy(it Item) int {
	if a.excludes(it) {
		return -1
	}
	for i, t := range a.Included {
		if t.Matches(it) {
			return i
		}
	}
	return -1
}

// Empty reports whether neither list has entries.
func (a ApplicableTo) Empty() bool { return len(a.Included) == 0 && len(a.Excluded) == 0 }

// Map returns the REST JSON form {"included": [...], "excluded": [...]}
// (lists are never null).
func (a ApplicableTo) Map() map[string]any {
	list := func(ts []Target) []any {
		out := make([]any, 0, len(ts))
		for _, t := range ts {
			out = append(out, t.Map())
		}
		return out
	}
	return map[string]any{"included": list(a.Included), "excluded": list(a.Excluded), "included_all": a.IncludedAll}
}

// Map is the entry's JSON form: object, id and the settings that are set.
func (t Target) Map() map[string]any {
	m := map[string]any{"object": t.Object, "id": t.ID}
	for k, v := range map[string]string{"source_id": t.SourceID, "product_id": t.ProductID,
		"product_source_id": t.ProductSourceID, "effect": t.Effect, "target": t.Unit} {
		if v != "" {
			m[k] = v
		}
	}
	if t.Price != nil {
		m["price"] = *t.Price
	}
	if t.PriceFormula != "" {
		m["price_formula"] = t.PriceFormula
	}
	for k, v := range t.limits() {
		if *v > 0 {
			m[k] = *v
		}
	}
	t.budgetMap(m)
	return m
}

// limits names the entry's integer settings.
func (t *Target) limits() map[string]*int64 {
	return map[string]*int64{"quantity_limit": &t.QuantityLimit, "aggregated_quantity_limit": &t.AggregatedQuantityLimit,
		"amount_limit": &t.AmountLimit, "aggregated_amount_limit": &t.AggregatedAmountLimit,
		"skip_initially": &t.SkipInitially, "repeat": &t.Repeat}
}

// Application effects of an applicable_to entry.
var entryEffects = []string{"APPLY_TO_EVERY", "APPLY_TO_CHEAPEST", "APPLY_TO_MOST_EXPENSIVE",
	"APPLY_FROM_CHEAPEST", "APPLY_FROM_MOST_EXPENSIVE"}

func (t Target) validate(prop string) error {
	if t.Object != ObjectProduct && t.Object != ObjectSKU && t.Object != ObjectCollection {
		return errorf(prop+".object", "unsupported object %q (use \"product\", \"sku\" or \"products_collection\")", t.Object)
	}
	if t.ID == "" {
		return errorf(prop+".id", "required (a non-empty string; source_id is not supported)")
	}
	if t.Effect != "" && !contains(entryEffects, t.Effect) {
		return errorf(prop+".effect", "must be one of %v, got %q", entryEffects, t.Effect)
	}
	if t.Unit != "" && t.Unit != "ITEM" && t.Unit != "UNIT" {
		return errorf(prop+".target", "must be ITEM or UNIT, got %q", t.Unit)
	}
	if t.Price != nil && (*t.Price < 0 || *t.Price > maxMoney) {
		return errorf(prop+".price", "must be an integer from 0 to %d", maxMoney)
	}
	for k, v := range t.limits() {
		if *v < 0 || *v > maxMoney {
			return errorf(prop+"."+k, "must be an integer from 0 to %d", maxMoney)
		}
	}
	return nil
}

// maxMoney bounds prices and limits (the discount package's MaxAmount).
const maxMoney = 10_000_000_000_000

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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
