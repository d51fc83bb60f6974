package validationrule

import (
	"encoding/json"
	"testing"
)

// TestBundleReferenceQualificationExample replays qualifications.json's
// example "Qualification for bundles": a bottle, a T-shirt and two socks
// against a bundle of 2 bottles and 5 items of a collection (T-shirt and
// socks belong to it) — no complete bundle, the lines used and what is
// missing as the example shows them.
func TestBundleReferenceQualificationExample(t *testing.T) {
	b := bundleOf(t, 1, [3]any{ObjectProduct, "prod_0fc35dfe978defeb6b", 2}, [3]any{ObjectCollection, "pc_pWu3TzRFhJ99Xak7Z7QlynNa", 5})
	items := []Item{
		{ProductID: "star-th-bottle", ProductAliases: []string{"prod_0fc35dfe978defeb6b"}, Quantity: 1, Price: 2499},
		{ProductID: "prod_0fc35dfeaa0defeb73", Quantity: 1, Price: 1999, Collections: []string{"pc_pWu3TzRFhJ99Xak7Z7QlynNa"}},
		{ProductID: "prod_0fc35dfeabcdefeb80", Quantity: 2, Price: 499, Collections: []string{"pc_pWu3TzRFhJ99Xak7Z7QlynNa"}},
	}
	got, _ := json.Marshal(b.Identify(items).View())
	want := `{"identified":[{"id":"prod_0fc35dfe978defeb6b","item_index":0,"item_quantity":1,"object":"product"},` +
		`{"id":"prod_0fc35dfeaa0defeb73","item_index":1,"item_quantity":1,"object":"product"},` +
		`{"id":"prod_0fc35dfeabcdefeb80","item_index":2,"item_quantity":2,"object":"product"}],"limit":1,` +
		`"missing":[{"id":"prod_0fc35dfe978defeb6b","item_quantity":1,"object":"product"},` +
		`{"id":"pc_pWu3TzRFhJ99Xak7Z7QlynNa","item_quantity":2,"object":"products_collection"}],"quantity":0}`
	if string(got) != want {
		t.Fatalf("bundle view\n got %s\nwant %s", got, want)
	}
}

// TestBundleSampleCart: the reference's §7.4 sample cart (Mug 1000×2,
// Poster 1500×3, T-shirt 2000×3, Bottle 2500×2) holds two bundles of
// "1 mug + 1 poster" (limit 3): the quantity that multiplies the discount.
func TestBundleSampleCart(t *testing.T) {
	b := bundleOf(t, 3, [3]any{ObjectProduct, "mug", 1}, [3]any{ObjectProduct, "poster", 1})
	items := []Item{{ProductID: "mug", Quantity: 2}, {ProductID: "poster", Quantity: 3}, {ProductID: "tshirt", Quantity: 3}, {ProductID: "bottle", Quantity: 2}}
	res := b.Identify(items)
	v := res.View()
	if res.Quantity != 2 || v["missing"] != nil {
		t.Fatalf("got %+v, want 2 bundles and nothing missing", v)
	}
	if got, _ := json.Marshal(v["identified"]); string(got) != `[{"id":"mug","item_index":0,"item_quantity":2,"object":"product"},{"id":"poster","item_index":1,"item_quantity":2,"object":"product"}]` {
		t.Fatalf("identified %s", got)
	}
}

// TestBundleViolationAndIdentifyBundles: a definition with bundle_rules
// fails (order_rules_violated, its error.message) without a complete
// bundle; with several rule sets the fewest bundles count.
func TestBundleViolationAndIdentifyBundles(t *testing.T) {
	two := bundleOf(t, 5, [3]any{ObjectProduct, "mug", 1})
	one := bundleOf(t, 5, [3]any{ObjectProduct, "mug", 2})
	none := bundleOf(t, 5, [3]any{ObjectProduct, "poster", 1})
	items := []Item{{ProductID: "mug", Quantity: 2}}
	if v := (Definition{Bundle: &two}).BundleViolation(items); v != nil {
		t.Fatalf("complete bundle: %+v", v)
	}
	v := (Definition{Bundle: &none, ErrorMessage: "Add a poster"}).BundleViolation(items)
	if v == nil || v.Key != KeyOrderRules || v.Custom != "Add a poster" {
		t.Fatalf("missing poster: %+v", v)
	}
	if v := (Definition{}).BundleViolation(nil); v != nil {
		t.Fatalf("no bundle_rules: %+v", v)
	}
	if res, ok := IdentifyBundles([]Definition{{}, {Bundle: &two}, {Bundle: &one}}, items); !ok || res.Quantity != 1 {
		t.Fatalf("fewest bundles: %+v %v", res, ok)
	}
	if _, ok := IdentifyBundles([]Definition{{}}, items); ok {
		t.Fatal("no bundle_rules found a bundle")
	}
	if b, err := DecodeBundleRules(map[string]any{}); b != nil || err != nil {
		t.Fatalf("{} is no bundle: %v %v", b, err)
	}
}
