package jsonfield

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestMarshalDocument: a stored document reaches GraphQL compacted (as
// PostgreSQL returns jsonb, with spaces, it must not show them), and a
// missing one is null.
func TestMarshalDocument(t *testing.T) {
	for name, c := range map[string]struct{ doc, want string }{
		"jsonb text": {`{"id": "ord_1", "items": [{"amount": 100}], "metadata": {}}`, `{"id":"ord_1","items":[{"amount":100}],"metadata":{}}`},
		"compact":    {`{"a":1}`, `{"a":1}`},
		"missing":    {``, `null`},
	} {
		var out bytes.Buffer
		MarshalDocument(json.RawMessage(c.doc)).MarshalGQL(&out)
		if out.String() != c.want {
			t.Errorf("%s: got %s, want %s", name, out.String(), c.want)
		}
	}
}

// TestUnmarshalDocument: a Map argument becomes a document; anything else
// is refused.
func TestUnmarshalDocument(t *testing.T) {
	doc, err := UnmarshalDocument(map[string]any{"b": 2, "a": "x"})
	if err != nil || string(doc) != `{"a":"x","b":2}` {
		t.Errorf("map: %s, %v", doc, err)
	}
	if _, err := UnmarshalDocument("not a map"); err == nil {
		t.Error("a string was taken as a document")
	}
}
