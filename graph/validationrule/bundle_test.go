package validationrule

import (
	"reflect"
	"testing"
)

// bundleOf is a bundle_rules object: limit and parts {object, id, quantity}.
func bundleOf(t *testing.T, limit int, parts ...[3]any) BundleRules {
	t.Helper()
	m := map[string]any{"limit": limit}
	for i, p := range parts {
		typ := "product_or_sku"
		if p[0] == ObjectCollection {
			typ = ObjectCollection
		}
		m[string(rune('1'+i))] = map[string]any{"name": "order.items.any",
			"conditions": map[string]any{"$is": []any{map[string]any{"id": p[1], "object": p[0], "type": typ}}},
			"rules": map[string]any{"1": map[string]any{"name": "order.items.aggregated_quantity",
				"conditions": map[string]any{"$is": []any{p[2]}}}, "logic": "1"}}
	}
	b, err := ParseBundleRules(m)
	if err != nil {
		t.Fatalf("ParseBundleRules: %v", err)
	}
	return b
}

// TestBundleIdentify: complete bundles counted up to the limit, only the
// units a bundle needs identified, what is missing listed, SKU parts
// served before product parts before collections.
func TestBundleIdentify(t *testing.T) {
	mug := Item{ProductID: "prod_mug", Quantity: 3, Price: 1000, Collections: []string{"pc_adv"}}
	poster := Item{ProductID: "prod_poster", Quantity: 1, Price: 1500, Collections: []string{"pc_adv"}}
	shirtL := Item{ProductID: "prod_shirt", SKUID: "sku_shirt_l", Quantity: 2, Price: 2000, Collections: []string{"pc_adv"}}
	tests := []struct {
		name  string
		b     BundleRules
		items []Item
		want  BundleResult
	}{
		{"one bundle of 2 mugs + 1 poster; the third mug is not used",
			bundleOf(t, 1, [3]any{ObjectProduct, "prod_mug", 2}, [3]any{ObjectProduct, "prod_poster", 1}), []Item{mug, poster},
			BundleResult{Quantity: 1, Limit: 1, Identified: []BundleLine{{"prod_mug", ObjectProduct, 0, 2}, {"prod_poster", ObjectProduct, 1, 1}}}},
		{"limit 3, mugs for one bundle only",
			bundleOf(t, 3, [3]any{ObjectProduct, "prod_mug", 2}), []Item{mug},
			BundleResult{Quantity: 1, Limit: 3, Identified: []BundleLine{{"prod_mug", ObjectProduct, 0, 2}}}},
		{"limit 3, three single-mug bundles",
			bundleOf(t, 3, [3]any{ObjectProduct, "prod_mug", 1}), []Item{mug},
			BundleResult{Quantity: 3, Limit: 3, Identified: []BundleLine{{"prod_mug", ObjectProduct, 0, 3}}}},
		{"a poster missing",
			bundleOf(t, 1, [3]any{ObjectProduct, "prod_mug", 1}, [3]any{ObjectProduct, "prod_poster", 2}), []Item{mug, poster},
			BundleResult{Quantity: 0, Limit: 1, Identified: []BundleLine{{"prod_mug", ObjectProduct, 0, 1}, {"prod_poster", ObjectProduct, 1, 1}},
				Missing: []BundleLine{{ID: "prod_poster", Object: ObjectProduct, Quantity: 1}}}},
		{"the SKU part first, the collection takes the rest",
			bundleOf(t, 1, [3]any{ObjectCollection, "pc_adv", 3}, [3]any{ObjectSKU, "sku_shirt_l", 2}), []Item{shirtL, mug},
			BundleResult{Quantity: 1, Limit: 1, Identified: []BundleLine{{"sku_shirt_l", ObjectSKU, 0, 2}, {"prod_mug", ObjectProduct, 1, 3}}}},
		{"a unit serves one part",
			bundleOf(t, 1, [3]any{ObjectProduct, "prod_poster", 1}, [3]any{ObjectCollection, "pc_adv", 1}), []Item{poster},
			BundleResult{Quantity: 0, Limit: 1, Identified: []BundleLine{{"prod_poster", ObjectProduct, 0, 1}},
				Missing: []BundleLine{{ID: "pc_adv", Object: ObjectCollection, Quantity: 1}}}},
	}
	for _, tt := range tests {
		if got := tt.b.Identify(tt.items); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// TestParseBundleRulesRefuses: the documented shape only.
func TestParseBundleRulesRefuses(t *testing.T) {
	part := func(name, object, typ string, n any) map[string]any {
		return map[string]any{"name": name, "conditions": map[string]any{"$is": []any{map[string]any{"id": "x", "object": object, "type": typ}}},
			"rules": map[string]any{"1": map[string]any{"name": "order.items.aggregated_quantity", "conditions": map[string]any{"$is": []any{n}}}}}
	}
	for name, m := range map[string]map[string]any{
		"limit 0":           {"limit": 0, "1": part("order.items.any", "product", "product_or_sku", 1)},
		"limit 101":         {"limit": 101, "1": part("order.items.any", "product", "product_or_sku", 1)},
		"no rule":           {"limit": 1},
		"other name":        {"1": part("order.items.every", "product", "product_or_sku", 1)},
		"type mismatch":     {"1": part("order.items.any", "products_collection", "product_or_sku", 1)},
		"quantity 0":        {"1": part("order.items.any", "product", "product_or_sku", 0)},
		"not a rule number": {"x": part("order.items.any", "product", "product_or_sku", 1)},
	} {
		if _, err := ParseBundleRules(m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
