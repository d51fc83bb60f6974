package redemption

import (
	"encoding/json"
	"reflect"
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
	m, err := DecodeOrderDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	if validationrule.JSONInt64(m["total_discount_amount"]) != 100 || validationrule.JSONInt64(m["amount"]) != 10000 || m["id"] != "ord_1" {
		t.Errorf("read back %v", m)
	}
	for _, empty := range []string{"", "null"} {
		if m, err := DecodeOrderDocument(json.RawMessage(empty)); err != nil || len(m) != 0 {
			t.Errorf("%q: %v, %v", empty, m, err)
		}
	}
	if _, err := DecodeOrderDocument(json.RawMessage(`{"amount":`)); err == nil {
		t.Error("a damaged document decoded")
	}
}

// TestOrderEntryEncodesAsItsMap: the typed order entry, its map and its
// document (encoded once for the order's calculated document and its
// redemptions column) are what encoding the map {id: entry} gives, for
// every shape of entry; an order view holding the document encodes as
// one holding the map.
func TestOrderEntryEncodesAsItsMap(t *testing.T) {
	for _, e := range []orderEntry{
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "voucher", RelatedObjectID: "v_1"},
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "redemption", RelatedObjectID: "r_1", Stacked: []string{"r_2", "r_3"}},
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "redemption", RelatedObjectID: "r_1", Stacked: []string{}},
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "redemption", RelatedObjectID: "r_1", Stacked: []string(nil)},
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "promotion_tier", RelatedObjectID: "promo_1",
			RelatedObjectParentID: "camp_1"},
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "promotion_tier", RelatedObjectID: "promo_1",
			RelatedObjectParentID: "camp_<&>"},
		{Date: "2026-11-27T20:00:00.000Z", RelatedObjectType: "redemption", RelatedObjectID: "r_1", Stacked: []string{"r_\u00e9"}},
	} {
		// The first ID is written directly, the second (quote, <) by json.Marshal.
		for _, id := range []string{"r_0a1b2c3d4e5f6a7b8c", "r_\"1<"} {
			m := map[string]any{id: e.asMap()}
			want, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := e.document(id)
			if err != nil {
				t.Fatal(err)
			}
			if string(doc) != string(want) {
				t.Errorf("document %s, want %s", doc, want)
			}
			withMap, _ := encodeOrderView(&orderView{Object: "order", Redemptions: m})
			withDoc, _ := encodeOrderView(&orderView{Object: "order", Redemptions: doc})
			if string(withMap) != string(withDoc) {
				t.Errorf("view with the document %s, with the map %s", withDoc, withMap)
			}
		}
	}
}

// TestPlainLinesAreTheRoundTrip: lines built without the JSON round trip
// are exactly what decoding their encoding gives; lines with metadata,
// invalid UTF-8 or numbers beyond float64's exact range take the round
// trip.
func TestPlainLinesAreTheRoundTrip(t *testing.T) {
	str := func(s string) *string { return &s }
	items := []orderItemView{
		{Object: "order_item", ProductID: str("p<1>"), Quantity: 2, InitialQuantity: 2, Price: 1500, Amount: 3000,
			InitialAmount: 3000, DiscountAmount: 100, AppliedDiscountAmount: 100, SubtotalAmount: 2900},
		{Object: "order_item", SkuID: str(""), SourceID: str("s\u00e9"), RelatedObject: str("sku"), Quantity: 1,
			Price: 10_000_000_000_000, Amount: 10_000_000_000_000, SubtotalAmount: 10_000_000_000_000},
		{Object: "order_item"},
	}
	lines, ok := plainLines(items)
	if !ok {
		t.Fatal("plain lines refused")
	}
	enc, _ := json.Marshal(items)
	var want []map[string]any
	if err := json.Unmarshal(enc, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("plain lines %v, want %v", lines, want)
	}
	for _, it := range []orderItemView{
		{Object: "order_item", Metadata: map[string]any{"k": json.Number("1.0")}},
		{Object: "order_item", ProductID: str("\xff")},
		{Object: "order_item", Amount: 1<<53 + 1},
	} {
		if _, ok := plainLines([]orderItemView{it}); ok {
			t.Errorf("%+v: plain lines accepted", it)
		}
	}
}
