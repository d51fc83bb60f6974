package metadata

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// TestMetadataPropertyConstraints: definitions parse from the JSON the
// transports decode (json.Number, int64, float64), and values are checked
// against the constraints at their edges.
func TestMetadataPropertyConstraints(t *testing.T) {
	def := func(raw map[string]any) jsonfield.MetadataProperty {
		t.Helper()
		p, err := metadataProperty("p", raw)
		if err != nil {
			t.Fatalf("definition %v: %v", raw, err)
		}
		return p
	}
	num := def(map[string]any{"type": "number", "gt": json.Number("1"), "lte": int64(5), "ne": []any{float64(3)}})
	str := def(map[string]any{"type": "string", "min_length": json.Number("2"), "max_length": 3, "eq": []any{"ab", "abc", "abcd"}})
	arr := def(map[string]any{"type": "number", "array": true, "gte": 0})
	for i, c := range []struct {
		prop jsonfield.MetadataProperty
		v    any
		ok   bool
	}{
		{num, json.Number("1"), false}, {num, json.Number("1.01"), true}, {num, float64(3), false},
		{num, int64(5), true}, {num, 5.001, false}, {num, "4", false},
		{str, "a", false}, {str, "ab", true}, {str, "abc", true}, {str, "abcd", false}, {str, "xy", false}, {str, 12, false},
		{arr, []any{json.Number("0"), 2.5}, true}, {arr, []any{json.Number("-1")}, false}, {arr, json.Number("1"), false},
	} {
		if err := CheckMetadataValue("p", c.prop, c.v); (err == nil) != c.ok {
			t.Errorf("case %d: %v against %+v: error %v, want ok=%v", i, c.v, c.prop, err, c.ok)
		}
	}
	for _, bad := range []map[string]any{
		{"type": "string", "min_length": 1.5},
		{"type": "string", "exact_length": json.Number("-2")},
		{"type": "number", "eq": []any{"x"}},
		{"type": "number", "ne": "3"},
		{"type": "string", "required": true},
	} {
		if _, err := metadataProperty("p", bad); err == nil {
			t.Errorf("definition %v accepted", bad)
		}
	}
}
