package rest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// SetRedemptionListSpliced turns redemptionListBody's writing of the
// redemption pages on or off (off: the codec encodes gin.H), for the
// external tests that compare both.
func SetRedemptionListSpliced(on bool) { redemptionListSpliced = on }

// TestAppendCompactJSONAsTheCodec: the one-pass compactor writes what
// a validating compactor writes, for documents as PostgreSQL prints jsonb
// (a space after each colon and comma) and as encoders write them.
func TestAppendCompactJSONAsTheCodec(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `null`, `"x"`, `12.5e-3`, `{"a": 1, "b": [1, 2, {"c": null}], "d": true, "e": false}`,
		`{"s": "a \"quoted\" word, with: colons, and {braces} [brackets]", "t": "tab\tnl\ncr\rback\\slash\\"}`,
		`{"u": "é € 😀 \u2028 \u00e9 \ud83d\ude00", "html": "<&>", "sp": "  two  spaces  "}`,
		`{"k": "\\\"", "n": -0, "big": 123456789012345678901234567890, "f": 1.5E+300}`,
		"{\n\t\"a\" :\r\n [ 1 ,\t2 ] ,\"b\":{ } }",
		`{"id": "ord_1", "items": [{"price": 1000, "metadata": {"c": "red"}, "quantity": 2}], "metadata": {"k": {"a": [], "z": 1}}}`,
		`["\\", "a\\\"b", "\\\\", " ", "", "\"", {"": ""}]`, ` { "a" : [ ] } `, `"ends with a backslash \\"`,
	} {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(doc)); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if got := appendCompactJSON([]byte("prefix"), []byte(doc)); string(got) != "prefix"+want.String() {
			t.Errorf("%s: compacted to %s, want %s", doc, got[len("prefix"):], want.String())
		}
	}
}

// BenchmarkAppendCompactJSON: an order document as PostgreSQL prints
// jsonb (a space after every colon and comma), compacted.
func BenchmarkAppendCompactJSON(b *testing.B) {
	doc := []byte(`{"id": "ord_0a1b2c3d4e5f60718293a4b5", "items": [{"amount": 20000, "object": "order_item", "price": 10000, ` +
		`"product": {"id": "prod_0a1b2c3d4e5f6071", "name": null, "price": null}, "quantity": 2, "source_id": "sku-1", ` +
		`"sku": null, "subtotal_amount": 20000}], "amount": 20000, "object": "order", "status": "PAID", "customer": ` +
		`{"id": "cust_0a1b2c3d4e5f60718293a4b5", "object": "customer"}, "metadata": {}, "referrer": null, ` +
		`"source_id": "red-order", "created_at": "2026-11-28T14:40:00.000Z", "updated_at": null, "total_amount": 19900, ` +
		`"discount_amount": 100, "items_discount_amount": 0, "total_discount_amount": 100, "applied_discount_amount": 100, ` +
		`"items_applied_discount_amount": 0, "total_applied_discount_amount": 100}`)
	dst := make([]byte, 0, len(doc))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		dst = appendCompactJSON(dst[:0], doc)
	}
}
