package jsonfield

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// TestMarshalDocument: a stored document reaches GraphQL compacted (as
// PostgreSQL returns jsonb, with spaces, it must not show them), a
// missing one is null, and one that is not JSON is an error.
func TestMarshalDocument(t *testing.T) {
	for name, c := range map[string]struct{ doc, want string }{
		"jsonb text": {`{"id": "ord_1", "items": [{"amount": 100}], "metadata": {}}`, `{"id":"ord_1","items":[{"amount":100}],"metadata":{}}`},
		"compact":    {`{"a":1}`, `{"a":1}`},
		"missing":    {``, `null`},
	} {
		var out bytes.Buffer
		if err := MarshalDocument(json.RawMessage(c.doc)).MarshalGQLContext(context.Background(), &out); err != nil || out.String() != c.want {
			t.Errorf("%s: got %s (%v), want %s", name, out.String(), err, c.want)
		}
	}
	if err := MarshalDocument(json.RawMessage(`{"a":`)).MarshalGQLContext(context.Background(), &bytes.Buffer{}); err == nil {
		t.Error("a damaged document was written")
	}
}

// TestUnmarshalDocument: a Map argument becomes a document; anything else
// is refused.
func TestUnmarshalDocument(t *testing.T) {
	doc, err := UnmarshalDocument(context.Background(), map[string]any{"b": 2, "a": "x"})
	if err != nil || string(doc) != `{"a":"x","b":2}` {
		t.Errorf("map: %s, %v", doc, err)
	}
	if _, err := UnmarshalDocument(context.Background(), "not a map"); err == nil {
		t.Error("a string was taken as a document")
	}
}
