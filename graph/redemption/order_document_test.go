package redemption

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promoengine/graph/validationrule"
)

// TestOrderDocumentRoundTrip: an order view is stored as its JSON and
// reads back with the same numbers; a missing or null document reads as
// an empty order and a damaged one is an error, not a panic.
func TestOrderDocumentRoundTrip(t *testing.T) {
	str := func(s string) *string { return &s }
	v := &orderView{ID: str("ord_1"), Amount: 10000, InitialAmount: 10000, DiscountAmount: 100, TotalDiscountAmount: 100,
		TotalAmount: 9900, Items: []orderItemView{{Object: "order_item", Quantity: 2, Price: 5000, Amount: 10000}},
		Metadata: map[string]any{}, Object: "order"}
	doc, err := encodeOrderView(v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(v)
	if string(doc) != string(want) {
		t.Errorf("stored %s, want the view's own JSON %s", doc, want)
	}
	m, err := decodeOrderDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	if validationrule.JSONInt64(m["total_discount_amount"]) != 100 || validationrule.JSONInt64(m["amount"]) != 10000 || m["id"] != "ord_1" {
		t.Errorf("read back %v", m)
	}
	for _, empty := range []string{"", "null"} {
		if m, err := decodeOrderDocument(json.RawMessage(empty)); err != nil || len(m) != 0 {
			t.Errorf("%q: %v, %v", empty, m, err)
		}
	}
	if _, err := decodeOrderDocument(json.RawMessage(`{"amount":`)); err == nil {
		t.Error("a damaged document decoded")
	}
}
