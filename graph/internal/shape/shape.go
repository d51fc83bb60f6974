// Package shape holds small helpers for the API's value shapes shared by
// the domain packages.
package shape

// OrEmptyMap returns m, or an empty map for nil.
func OrEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// FirstNonEmpty returns the first of ss that is set and not empty ("" for
// none).
func FirstNonEmpty(ss ...*string) string {
	for _, s := range ss {
		if s != nil && *s != "" {
			return *s
		}
	}
	return ""
}
