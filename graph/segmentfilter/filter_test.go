package segmentfilter

import (
	"encoding/json"
	"errors"
	"testing"
)

// ann is the customer most cases evaluate.
var ann = Customer{
	ID: "cust_1", Name: "Ann", Email: "ann@vip.example", SourceID: "", Phone: "+48 600 100 200",
	Description: "Loyal since 2019", Birthday: "1990-04-01",
	Metadata:    map[string]any{"tier": "gold", "visits": json.Number("12"), "score": 4.5, "vip": true, "a.b": "dotted", "empty": "", "nan": "NaN"},
	EventCounts: map[string]int{"purchase": 3, "page.view": 7},
}

func cond(op string, v any) map[string]any {
	return map[string]any{"conditions": map[string]any{op: v}}
}

func one(key, op string, v any) map[string]any { return map[string]any{key: cond(op, v)} }

func TestMatch(t *testing.T) {
	cases := []struct {
		name   string
		filter map[string]any
		want   bool
	}{
		// events.<name>.count
		{"count more than string", one("events.purchase.count", "$more_than", []any{"2"}), true},
		{"count more than equal value", one("events.purchase.count", "$more_than", 3), false},
		{"count more than equal", one("events.purchase.count", "$more_than_equal", 3), true},
		{"count less than equal", one("events.purchase.count", "$less_than_equal", []any{3}), true},
		{"count less than", one("events.purchase.count", "$less_than", 3), false},
		{"count is", one("events.purchase.count", "$is", []any{"3"}), true},
		{"count is json number", one("events.purchase.count", "$is", json.Number("3.0")), true},
		{"count in", one("events.purchase.count", "$in", []any{1, 2, 3}), true},
		{"count not in", one("events.purchase.count", "$not_in", []any{1, 2}), true},
		{"count is not", one("events.purchase.count", "$is_not", 3), false},
		{"unknown event counts 0", one("events.refund.count", "$less_than", 1), true},
		{"unknown event is 0", one("events.refund.count", "$is", 0), true},
		{"count 0 has value", one("events.refund.count", "$has_value", true), true},
		{"dotted event name", one("events.page.view.count", "$is", 7), true},
		{"comparison with first operand only", one("events.purchase.count", "$more_than", []any{5, 1}), false},
		{"comparison without operand", one("events.purchase.count", "$more_than", []any{}), false},
		{"comparison with a word", one("events.purchase.count", "$more_than", "many"), false},

		// profile fields
		{"id is", one("id", "$is", "cust_1"), true},
		{"name in", one("name", "$in", []any{"Bob", "Ann"}), true},
		{"name in string list", one("name", "$in", []string{"Bob", "Ann"}), true},
		{"name is is case-sensitive", one("name", "$is", "ann"), false},
		{"name not in", one("name", "$not_in", []any{"Bob"}), true},
		{"email contains, case-insensitive", one("email", "$contains", []any{"@VIP."}), true},
		{"email contains any operand", one("email", "$contains", []any{"nope", "ann@"}), true},
		{"email not contain", one("email", "$not_contain", "vip"), false},
		{"email starts with", one("email", "$starts_with", "ANN"), true},
		{"email ends with", one("email", "$ends_with", ".example"), true},
		{"email ends with wrong", one("email", "$ends_with", ".com"), false},
		{"source_id unknown", one("source_id", "$is_unknown", true), true},
		{"source_id has value", one("source_id", "$has_value", true), false},
		{"phone has value", one("phone", "$has_value", true), true},
		{"description contains", one("description", "$contains", "loyal"), true},
		{"birthday starts with", one("birthday", "$starts_with", "1990-"), true},

		// unknown values
		{"unknown is", one("source_id", "$is", ""), false},
		{"unknown in", one("source_id", "$in", []any{"", "x"}), false},
		{"unknown is not", one("source_id", "$is_not", "x"), true},
		{"unknown not in", one("source_id", "$not_in", []any{"x"}), true},
		{"unknown contains", one("source_id", "$contains", ""), false},
		{"unknown starts with", one("source_id", "$starts_with", ""), false},
		{"unknown ends with", one("source_id", "$ends_with", ""), false},
		{"unknown not contain", one("source_id", "$not_contain", "x"), true},
		{"unknown more than", one("source_id", "$more_than", -1), false},
		{"unknown less than", one("source_id", "$less_than", 1), false},

		// metadata.<key>
		{"metadata string", one("metadata.tier", "$is", "gold"), true},
		{"metadata number vs string", one("metadata.visits", "$more_than_equal", "12"), true},
		{"metadata number vs padded string", one("metadata.visits", "$is", " 12 "), true},
		{"metadata float", one("metadata.score", "$less_than", 5), true},
		{"metadata float is", one("metadata.score", "$is", "4.50"), true},
		{"metadata bool as text", one("metadata.vip", "$is", "true"), true},
		{"metadata bool is not number", one("metadata.vip", "$more_than", 0), false},
		{"metadata missing is not", one("metadata.nope", "$is_not", "x"), true},
		{"metadata missing is unknown", one("metadata.nope", "$is_unknown", nil), true},
		{"metadata empty is unknown", one("metadata.empty", "$is_unknown", nil), true},
		{"metadata missing has no value", one("metadata.nope", "$has_value", nil), false},
		{"metadata key with dots", one("metadata.a.b", "$is", "dotted"), true},
		{"metadata NaN compares as text", one("metadata.nan", "$is", "NaN"), true},
		{"metadata NaN is not a number", one("metadata.nan", "$more_than", -1), false},

		// several operators and junctions
		{"all operators of a key", map[string]any{"events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": 1, "$less_than": 3}}}, false},
		{"all operators of a key hold", map[string]any{"events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": 1, "$less_than": 4}}}, true},
		{"and by default", map[string]any{"metadata.tier": cond("$is", "gold"), "name": cond("$is", "Bob")}, false},
		{"and: one fails", map[string]any{"junction": "and", "metadata.tier": cond("$is", "gold"), "name": cond("$is", "Bob")}, false},
		{"and: all hold", map[string]any{"junction": "and", "metadata.tier": cond("$is", "gold"), "name": cond("$is", "Ann")}, true},
		{"or: one holds", map[string]any{"junction": "or", "metadata.tier": cond("$is", "silver"), "name": cond("$is", "Ann")}, true},
		{"or: none holds", map[string]any{"junction": "or", "metadata.tier": cond("$is", "silver"), "name": cond("$is", "Bob")}, false},
		{"empty filter", map[string]any{}, true},
		{"or without keys", map[string]any{"junction": "or"}, true},
		{"and without keys", map[string]any{"junction": "and"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(tc.filter)
			if err != nil {
				t.Fatalf("invalid filter: %v", err)
			}
			if got := f.Match(ann); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
			if got := Match(tc.filter, ann); got != tc.want {
				t.Errorf("Match(map) = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEveryOperatorIsAccepted keeps the operator list and the evaluator in step.
func TestEveryOperatorIsAccepted(t *testing.T) {
	for _, op := range operators {
		if _, err := Parse(one("name", op, "x")); err != nil {
			t.Errorf("%s: %v", op, err)
		}
	}
	for _, key := range customerFields {
		if _, err := Parse(one(key, "$is", "x")); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	fields := "[id name email source_id phone description birthday]"
	cases := []struct {
		name    string
		filter  map[string]any
		key     string
		message string
	}{
		{"bad junction", map[string]any{"junction": "xor"}, "junction", "Property .filter.junction must be and or or"},
		{"junction not a string", map[string]any{"junction": true}, "junction", "Property .filter.junction must be and or or"},
		{"unknown field", one("color", "$is", "red"), "color",
			"Property .filter.color is not a supported filter: use events.<name>.count, metadata.<key> or one of " + fields},
		{"events without count", one("events.purchase", "$is", 1), "events.purchase",
			"Property .filter.events.purchase is not a supported filter: use events.<name>.count, metadata.<key> or one of " + fields},
		{"events without name", one("events..count", "$is", 1), "events..count",
			"Property .filter.events..count is not a supported filter: use events.<name>.count, metadata.<key> or one of " + fields},
		{"metadata without key", one("metadata.", "$is", 1), "metadata.",
			"Property .filter.metadata. is not a supported filter: use events.<name>.count, metadata.<key> or one of " + fields},
		{"entry not an object", map[string]any{"name": "Ann"}, "name", "Property .filter.name must be an object with conditions"},
		{"no conditions", map[string]any{"name": map[string]any{}}, "name", "Property .filter.name must have a non-empty conditions object"},
		{"empty conditions", map[string]any{"name": map[string]any{"conditions": map[string]any{}}}, "name",
			"Property .filter.name must have a non-empty conditions object"},
		{"conditions not an object", map[string]any{"name": map[string]any{"conditions": []any{"$is"}}}, "name",
			"Property .filter.name must have a non-empty conditions object"},
		{"unknown operator", one("events.purchase.count", "$near", 1), "events.purchase.count",
			"Property .filter.events.purchase.count.conditions.$near is not a supported operator"},
		{"validation rule spelling", one("metadata.x", "$less_than_or_equal", 1), "metadata.x",
			"Property .filter.metadata.x.conditions.$less_than_or_equal is not a supported operator"},
		{"first key in order", map[string]any{"zeta": cond("$is", 1), "alpha": cond("$is", 1)}, "alpha",
			"Property .filter.alpha is not a supported filter: use events.<name>.count, metadata.<key> or one of " + fields},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.filter)
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if fe.Key != tc.key || fe.Message != tc.message || err.Error() != tc.message {
				t.Errorf("got key %q message %q, want %q %q", fe.Key, fe.Message, tc.key, tc.message)
			}
			if Match(tc.filter, ann) {
				t.Error("an invalid filter matched")
			}
		})
	}
}

func TestOperandsAndText(t *testing.T) {
	if got := Operands([]any{"a", 1.0}); len(got) != 2 || got[0] != "a" || got[1] != 1.0 {
		t.Errorf("Operands(array) = %v", got)
	}
	if got := Operands([]string{"a", "b"}); len(got) != 2 || got[1] != "b" {
		t.Errorf("Operands([]string) = %v", got)
	}
	if got := Operands("a"); len(got) != 1 || got[0] != "a" {
		t.Errorf("Operands(scalar) = %v", got)
	}
	texts := []struct {
		in   any
		want string
	}{
		{"x", "x"}, {nil, ""}, {json.Number("1.50"), "1.50"}, {2.5, "2.5"}, {3, "3"}, {true, "true"},
		{map[string]any{"a": 1}, `{"a":1}`},
	}
	for _, tc := range texts {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
