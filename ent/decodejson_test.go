package ent

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDecodeJSONDocumentAsEncodingJSON: decodeJSONDocument (goccy/go-json,
// the decoder of JSON columns of plain maps and slices, see
// ent/template/decode.tmpl) gives the values json.Unmarshal gives, for the
// documents PostgreSQL's jsonb and SQLite hand back: jsonb's spacing,
// escapes, surrogate pairs, large and small numbers, nulls and nesting.
func TestDecodeJSONDocumentAsEncodingJSON(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `{"a": null}`, `[null, {}]`, `["a", null]`, `null`, `["x", "", "\u00e9"]`,
		`{"tier": "gold", "n": 1, "f": 1.5, "neg": -0.0, "exp": 1e21, "tiny": -2e-7, "big": 12345678901234567890, "odd": 9007199254740993}`,
		`[{"amount": 20000, "object": "order_item", "price": 10000, "product": {"id": "prod_1", "metadata": {}}, "quantity": 2, "source_id": "sku-1"}]`,
		`{"r_0123456789abcdef": {"date": "2026-11-28T02:00:00.123Z", "result": "SUCCESS", "rollback_id": null, "stacked": ["a", 1.5, true, false, null]}}`,
		`{"a\u00e9\ud83d\ude00\n\t\"\\\/": "\u0000x\u2028\u2029<>&", "": {"": []}, "e": [], "k\"ey": "v"}`,
		`{"deep": [[[{"k": [1, 2, {"z": null, "w": [[], [{}]]}]}]]], "s": "日本語 😀"}`,
		"{\"ws\" :\t[ 1 ,\n2 ] , \"x\" : { } }",
		`{"dup": 1, "dup": 2}`,
	}
	for _, d := range docs {
		for _, target := range []func() any{
			func() any { return new(map[string]any) }, func() any { return new([]map[string]any) },
			func() any { return new([]any) }, func() any { return new([]string) },
		} {
			want, got := target(), target()
			werr := json.Unmarshal([]byte(d), want)
			gerr := decodeJSONDocument([]byte(d), got)
			if (werr == nil) != (gerr == nil) {
				if werr == nil { // a document encoding/json takes must decode alike
					t.Errorf("%s into %T: encoding/json: ok, goccy: %v", d, want, gerr)
				}
				continue
			}
			if werr == nil && !reflect.DeepEqual(want, got) {
				t.Errorf("%s into %T:\n encoding/json %#v\n goccy         %#v", d, want, want, got)
			}
		}
	}
}
