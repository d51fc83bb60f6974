package openapi

import "strings"

// Undocumented says whether the document leaves a served route out, and
// why. The rule: every route the router serves is documented, except the
// GraphQL endpoints (/graphql and /management/graphql, every method: a
// GraphQL schema describes them, by introspection) and the GraphiQL
// playground (/playground and its assets: a browser UI, not an API).
// Probes, metrics, asset images, export downloads and this document are
// documented. route is a gin route template (/v1/vouchers/:code).
func Undocumented(method, route string) (reason string, ok bool) {
	switch {
	case route == "/graphql" || route == "/management/graphql":
		return "GraphQL endpoint: described by its GraphQL schema (introspection)", true
	case route == "/playground" || strings.HasPrefix(route, "/playground/"):
		return "GraphiQL playground: a browser UI", true
	}
	return "", false
}
