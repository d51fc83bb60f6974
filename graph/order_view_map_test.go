package graph

import (
	"encoding/json"
	"testing"
)

// TestOrderViewMapEncodesAsTheStruct: the stored map of an order view
// (asMap) encodes to the same JSON as the view itself, for every optional
// part present and absent.
func TestOrderViewMapEncodesAsTheStruct(t *testing.T) {
	str := func(s string) *string { return &s }
	full := &orderView{
		ID: str("ord_1"), SourceID: str(""), Status: str("PAID"), Amount: 10000, InitialAmount: 10000,
		DiscountAmount: 100, ItemsDiscountAmount: 50, TotalDiscountAmount: 150, TotalAmount: 9850,
		AppliedDiscountAmount: 100, ItemsAppliedDiscountAmount: 50, TotalAppliedDiscountAmount: 150,
		Items: []orderItemView{
			{Object: "order_item", ProductID: str("p1"), SkuID: str("s1"), SourceID: str("src"), RelatedObject: str("product"),
				Quantity: 2, InitialQuantity: 1, DiscountQuantity: 1, Price: 1500, Amount: 3000, InitialAmount: 1500,
				DiscountAmount: 50, AppliedDiscountAmount: 50, SubtotalAmount: 2950, Metadata: map[string]any{"k": "v"}},
			{Object: "order_item", Metadata: map[string]any{}},
		},
		Metadata: map[string]any{"a": 1.5}, CustomerID: str("cust_1"),
		Customer: map[string]any{"id": "cust_1", "object": "customer"}, CreatedAt: str("2026-11-25T00:00:00.000Z"),
		Redemptions: map[string]any{"r_1": map[string]any{"date": "x", "stacked": []string{"r_2"}}}, Object: "order",
	}
	for name, v := range map[string]*orderView{
		"everything": full,
		"nothing":    {Object: "order"},
		"empty":      {Items: []orderItemView{}, Metadata: map[string]any{}, Customer: map[string]any{}, Redemptions: map[string]any{}, Object: "order"},
	} {
		want, err := json.Marshal(jsonRoundTrip(t, v))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(v.asMap())
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// jsonRoundTrip is v as encoding/json decodes its JSON into a map: what
// the stored form was built with before asMap.
func jsonRoundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
