package jsonfield

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// Documents: JSON objects stored as they are shown (json.RawMessage
// fields: a redemption's order, an order's calculated form). They are
// encoded once when written and never decoded to be shown; GraphQL shows
// them as its Map scalar (gqlgen.yml binds Map to these functions for
// fields of that Go type).

// MarshalDocument writes a stored document as a Map value, compacted
// (PostgreSQL returns jsonb with spaces), or null when there is none.
func MarshalDocument(doc json.RawMessage) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		var out bytes.Buffer
		if len(doc) == 0 || json.Compact(&out, doc) != nil {
			_, _ = io.WriteString(w, "null") // stored documents are valid JSON: not reached
			return
		}
		_, _ = out.WriteTo(w)
	})
}

// UnmarshalDocument reads a Map value as a document.
func UnmarshalDocument(v any) (json.RawMessage, error) {
	m, err := graphql.UnmarshalMap(v)
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encoding a Map value: %w", err)
	}
	return doc, nil
}
