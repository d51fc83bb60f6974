package resttest

import (
	"net/http"
	"testing"
)

// CreateCategory makes a campaign category through POST /v1/categories
// (200) and returns it.
func CreateCategory(t testing.TB, e *Env, h Headers, name string, hierarchy int) map[string]any {
	t.Helper()
	return Must(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": name, "hierarchy": hierarchy}, h), http.StatusOK)
}

// HasKey reports whether a response object carries key at all (null
// included): the real service leaves out keys without a value.
func HasKey(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}
