package validationrule

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Bundles (reference §7.6, validation-rules.json ValidationRuleBundleRules):
// a rule set's bundle_rules name the products, SKUs or collections a cart
// must hold, each with a quantity; Identify finds how many complete
// bundles the cart holds (at most Limit), which lines make them and what
// is missing. Validations require a complete bundle and multiply the
// discount by the bundles found (docs/promotions.md "Bundles").

// BundleRules is a parsed bundle_rules object.
type BundleRules struct {
	// Limit is the most bundles counted (1–100, default 1).
	Limit int64
	// Parts are the required items, by rule number.
	Parts []BundlePart
}

// BundlePart is one required product, SKU or collection and its units.
type BundlePart struct {
	Key      string // the rule number ("1", "2", …)
	Target   Target // object and id
	Quantity int64  // units per bundle (order.items.aggregated_quantity $is, default 1)
}

// BundleLine is an order line (0-based index) a bundle uses, or a part
// missing units.
type BundleLine struct {
	ID       string // the line's SKU or product (missing: the part's id)
	Object   string // sku, product (missing: also products_collection)
	Index    int    // the order line (identified only)
	Quantity int64  // units used (identified) or missing (missing)
}

// BundleResult is what Identify found.
type BundleResult struct {
	Quantity, Limit int64
	Identified      []BundleLine
	Missing         []BundleLine
}

// ParseBundleRules reads bundle_rules: {"limit": n, "1": {"name":
// "order.items.any", "conditions": {"$is": [{"id", "type", "object"}]},
// "rules": {"1": {"name": "order.items.aggregated_quantity",
// "conditions": {"$is": [n]}}}}, …}.
func ParseBundleRules(m map[string]any) (BundleRules, error) {
	b := BundleRules{Limit: 1}
	if v, ok := m["limit"]; ok && v != nil {
		n, ok := toInt(v)
		if !ok || n < 1 || n > 100 {
			return b, errorf("bundle_rules.limit", "must be an integer from 1 to 100, got %s", describe(v))
		}
		b.Limit = n
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "limit" {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return ruleKeyLess(keys[i], keys[j]) })
	for _, k := range keys {
		if !isRuleKey(k) {
			return b, errorf("bundle_rules", "unexpected key %q (rule keys are positive integers, and limit)", k)
		}
		p, err := parseBundlePart("bundle_rules."+k, m[k])
		if err != nil {
			return b, err
		}
		p.Key = k
		b.Parts = append(b.Parts, p)
	}
	if len(b.Parts) == 0 {
		return b, errorf("bundle_rules", "at least one rule is required")
	}
	return b, nil
}

// ruleKeyLess orders rule numbers numerically.
func ruleKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// parseBundlePart reads one numbered bundle rule.
func parseBundlePart(p string, v any) (BundlePart, error) {
	r, ok := v.(map[string]any)
	if !ok {
		return BundlePart{}, errorf(p, "must be an object, got %s", describe(v))
	}
	if r["name"] != NameOrderItemsAny {
		return BundlePart{}, errorf(p+".name", "must be %q, got %s", NameOrderItemsAny, describe(r["name"]))
	}
	cond, _ := r["conditions"].(map[string]any)
	is, _ := asList(cond["$is"])
	if len(cond) != 1 || len(is) != 1 {
		return BundlePart{}, errorf(p+".conditions", "must be {\"$is\": [one {id, type, object}]}")
	}
	obj, _ := is[0].(map[string]any)
	id, _ := obj["id"].(string)
	object, _ := obj["object"].(string)
	typ, _ := obj["type"].(string)
	wantType := "product_or_sku"
	if object == ObjectCollection {
		wantType = ObjectCollection
	}
	if id == "" || !slices.Contains([]string{ObjectProduct, ObjectSKU, ObjectCollection}, object) || typ != wantType {
		return BundlePart{}, errorf(p+".conditions.$is[0]", "must be {id, object: product|sku|products_collection, "+
			"type: product_or_sku|products_collection (matching the object)}")
	}
	part := BundlePart{Target: Target{Object: object, ID: id}, Quantity: 1}
	sub, _ := r["rules"].(map[string]any)
	for k, x := range sub {
		if k == "logic" {
			continue
		}
		sr, _ := x.(map[string]any)
		sc, _ := sr["conditions"].(map[string]any)
		ns, _ := asList(sc["$is"])
		var n int64
		if len(ns) == 1 {
			n, _ = toInt(ns[0])
		}
		if sr["name"] != "order.items.aggregated_quantity" || len(sc) != 1 || n < 1 {
			return BundlePart{}, errorf(fmt.Sprintf("%s.rules.%s", p, k),
				"must be {\"name\": \"order.items.aggregated_quantity\", \"conditions\": {\"$is\": [n ≥ 1]}}")
		}
		part.Quantity = n
	}
	return part, nil
}

// Identify counts the complete bundles in items (at most Limit). A unit
// serves one part; SKU parts take their units first, then product parts,
// then collections (the reference's order), each in line order. With no
// complete bundle, Identified is what one bundle found and Missing what
// it lacks.
func (b BundleRules) Identify(items []Item) BundleResult {
	res := BundleResult{Limit: b.Limit}
	best := 0
	for q := 1; q <= int(b.Limit); q++ {
		if _, missing := b.allocate(items, int64(q)); len(missing) > 0 {
			break
		}
		best = q
	}
	res.Quantity = int64(best)
	res.Identified, res.Missing = b.allocate(items, max(res.Quantity, 1))
	if res.Quantity > 0 {
		res.Missing = nil
	}
	return res
}

// allocate takes q bundles' units from the lines, parts by priority.
func (b BundleRules) allocate(items []Item, q int64) (identified, missing []BundleLine) {
	left := make([]int64, len(items))
	for i, it := range items {
		left[i] = it.Quantity
	}
	used := map[int]int64{}
	parts := slices.Clone(b.Parts)
	rank := map[string]int{ObjectSKU: 0, ObjectProduct: 1, ObjectCollection: 2}
	slices.SortStableFunc(parts, func(a, c BundlePart) int { return rank[a.Target.Object] - rank[c.Target.Object] })
	for _, p := range parts {
		need := p.Quantity * q
		for i, it := range items {
			if need == 0 {
				break
			}
			if left[i] > 0 && p.Target.Matches(it) {
				take := min(left[i], need)
				left[i] -= take
				used[i] += take
				need -= take
			}
		}
		if need > 0 {
			missing = append(missing, BundleLine{ID: p.Target.ID, Object: p.Target.Object, Quantity: need})
		}
	}
	for i, it := range items {
		if used[i] > 0 {
			id, object := lineIdentity(it)
			identified = append(identified, BundleLine{ID: id, Object: object, Index: i, Quantity: used[i]})
		}
	}
	return identified, missing
}

// lineIdentity is the line's SKU (else product), preferring the catalogue id.
func lineIdentity(it Item) (string, string) {
	pick := func(id string, aliases []string, prefix string) string {
		for _, a := range append([]string{id}, aliases...) {
			if strings.HasPrefix(a, prefix) {
				return a
			}
		}
		return id
	}
	if it.SKUID != "" {
		return pick(it.SKUID, it.SKUAliases, "sku_"), ObjectSKU
	}
	return pick(it.ProductID, it.ProductAliases, "prod_"), ObjectProduct
}
