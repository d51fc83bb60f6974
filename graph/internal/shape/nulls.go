package shape

import (
	"strings"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Nulls records which members of an update request were an explicit JSON
// (or GraphQL) null, so that an update can tell "clear this field" (null)
// from "leave it" (absent): a Go pointer is nil in both cases. An update
// input embeds it; the REST decoder (rest/internal/httpkit/decode.go) and the GraphQL
// mutations (graph/graphql_nulls.go) fill it through SetNulls for every
// input that does, so no handler or resolver tells null from absent by
// hand. Members are named as in the REST body (the json tags); a member of
// a nested object by its path: "address.city", "redemption.quantity".
type Nulls struct{ names map[string]bool }

// SetNulls records the members given as null.
func (n *Nulls) SetNulls(names []string) {
	n.names = make(map[string]bool, len(names))
	for _, name := range names {
		n.names[name] = true
	}
}

// IsNull reports whether the member name (a path for a nested member) was
// an explicit null.
func (n Nulls) IsNull(name string) bool { return n.names[name] }

// Any reports whether any member was an explicit null.
func (n Nulls) Any() bool { return len(n.names) > 0 }

// Under returns the nulls of the nested object member: its members' paths
// without the "member." prefix, so a use case written for the nested
// input reads them as its own.
func (n Nulls) Under(member string) Nulls {
	prefix := member + "."
	var out Nulls
	for name := range n.names {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if out.names == nil {
				out.names = map[string]bool{}
			}
			out.names[rest] = true
		}
	}
	return out
}

// RefuseNull answers 400 invalid_payload for the first of the required
// members named that was given as null (a required field cannot be
// cleared), nil if none was.
func (n Nulls) RefuseNull(names ...string) error {
	for _, name := range names {
		if n.names[name] {
			return apperr.InvalidPayload("Property .%s cannot be null: it is required (leave it out to keep its value)", name)
		}
	}
	return nil
}
