package jsonfield

import (
	"bytes"
	"context"
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
// (PostgreSQL returns jsonb with spaces), or null when there is none. A
// document that is not JSON is a field error, never a silent null.
func MarshalDocument(doc json.RawMessage) graphql.ContextMarshaler {
	return graphql.ContextWriterFunc(func(_ context.Context, w io.Writer) error {
		if len(doc) == 0 {
			_, err := io.WriteString(w, "null")
			return err
		}
		var out bytes.Buffer
		if err := json.Compact(&out, doc); err != nil {
			return fmt.Errorf("a stored document is not JSON: %w", err)
		}
		_, err := out.WriteTo(w)
		return err
	})
}

// UnmarshalDocument reads a Map value as a document.
func UnmarshalDocument(_ context.Context, v any) (json.RawMessage, error) {
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
