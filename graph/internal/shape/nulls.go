package shape

// Nulls records which members of an update request were an explicit JSON
// null, so that an update can tell "clear this field" (null) from "leave
// it" (absent): a Go pointer is nil in both cases. An update input embeds
// it; the REST decoder fills it (rest/decode.go, SetNulls) for every input
// that does, so no handler tells null from absent by hand.
type Nulls struct{ names map[string]bool }

// SetNulls records the top-level members given as null.
func (n *Nulls) SetNulls(names []string) {
	n.names = make(map[string]bool, len(names))
	for _, name := range names {
		n.names[name] = true
	}
}

// IsNull reports whether the member name was an explicit null.
func (n Nulls) IsNull(name string) bool { return n.names[name] }

// Any reports whether any member was an explicit null.
func (n Nulls) Any() bool { return len(n.names) > 0 }
