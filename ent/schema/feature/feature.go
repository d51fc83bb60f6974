// Package feature names the plan features a project can have. An operation
// whose feature the project lacks fails with 402 missing_required_feature.
// Operators set a project's features with `promoengine project features`.
package feature

import (
	"slices"
	"strings"
)

// The features promoengine gates.
const (
	// Branding allows POST /management/v1/projects/{id}/branding.
	Branding = "branding"
	// UsersManagement allows GET /management/v1/projects/{id}/users.
	UsersManagement = "users_management"
)

// All lists every feature; new projects get all of them.
var All = []string{Branding, UsersManagement}

// Valid reports whether name is a known feature.
func Valid(name string) bool { return slices.Contains(All, name) }

// Normalize returns names sorted and without duplicates, and the first
// unknown name ("" when all are known).
func Normalize(names []string) (out []string, unknown string) {
	out = make([]string, 0, len(names))
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !Valid(n) {
			return nil, n
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), ""
}
