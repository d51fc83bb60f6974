package rest

import (
	"slices"
	"strings"
)

// routeScope says which OAuth scopes let a bearer token call the routes
// matching Method and Path. Path is a route template prefix: a segment
// starting with ':' matches any one segment, and the template matches the
// route itself and everything below it.
type routeScope struct {
	Method string // "" matches every method
	Path   string
	Scopes []string
}

// scopeTable is the one place that says which scope each endpoint needs
// (docs/security.md shows the same table). The first matching row wins, so
// specific rows come before general ones. A route that matches no row
// needs "api": unknown routes fail closed. Application keys are not scoped.
var scopeTable = []routeScope{
	{Path: "/v1/publications", Scopes: []string{"api", "publications"}},
	{Method: "GET", Path: "/v1/vouchers/:code/publications", Scopes: []string{"api", "publications", "vouchers"}},
	{Method: "POST", Path: "/v1/vouchers/:code/transactions/export", Scopes: []string{"api", "exports"}},
	{Path: "/v1/exports", Scopes: []string{"api", "exports"}},
	{Path: "/v1/templates", Scopes: []string{"api", "templates"}},
	{Path: "/v1/locations", Scopes: []string{"api", "locations"}},
	{Path: "/v1/trash-bin", Scopes: []string{"api", "trash-bin"}},
	{Method: "POST", Path: "/v1/vouchers/:code/validate", Scopes: []string{"api", "validations"}},
	{Method: "POST", Path: "/v1/vouchers/:code/redemption", Scopes: []string{"api", "redemptions"}},
	{Method: "GET", Path: "/v1/vouchers/:code/redemption", Scopes: []string{"api", "redemptions", "vouchers"}},
	{Method: "GET", Path: "/v1/vouchers/:code/redemptions", Scopes: []string{"api", "redemptions", "vouchers"}},
	{Path: "/v1/validations", Scopes: []string{"api", "validations"}},
	{Method: "POST", Path: "/v1/qualifications", Scopes: []string{"api", "qualifications"}},
	{Method: "POST", Path: "/v1/vouchers/qualification", Scopes: []string{"api", "vouchers"}},
	{Method: "POST", Path: "/v1/campaigns/qualification", Scopes: []string{"api", "campaigns"}},
	{Path: "/v1/redemptions", Scopes: []string{"api", "redemptions"}},
	{Path: "/v1/validation-rules-assignments", Scopes: []string{"api", "validation-rules-assignments"}},
	{Path: "/v1/validation-rules", Scopes: []string{"api", "validation-rules"}},
	{Path: "/v1/campaigns", Scopes: []string{"api", "campaigns"}},
	{Path: "/v1/categories", Scopes: []string{"api", "categories"}},
	{Path: "/v1/products/:productId/skus", Scopes: []string{"api", "products", "skus"}},
	{Path: "/v1/products", Scopes: []string{"api", "products"}},
	{Method: "POST", Path: "/v1/promotions/validation", Scopes: []string{"api", "validations"}},
	{Method: "POST", Path: "/v1/promotions/tiers/:promotionTierId/redemption", Scopes: []string{"api", "redemptions"}},
	{Method: "POST", Path: "/v1/promotions/tiers/:promotionTierId/validation", Scopes: []string{"api", "validations"}},
	{Path: "/v1/promotions", Scopes: []string{"api", "promotions"}},
	{Path: "/v1/skus", Scopes: []string{"api", "skus", "products"}},
	{Method: "POST", Path: "/v1/orders/export", Scopes: []string{"api", "orders", "exports"}},
	{Path: "/v1/orders", Scopes: []string{"api", "orders"}},
	{Path: "/v1/product-collections", Scopes: []string{"api", "product-collections", "products"}},
	{Path: "/v1/vouchers", Scopes: []string{"api", "vouchers"}},
	{Path: "/v1/async-actions", Scopes: []string{"api", "async-actions"}},
	{Method: "PUT", Path: "/v1/customers/:customerId/consents", Scopes: []string{"api", "customers", "consents"}},
	{Path: "/v1/customers", Scopes: []string{"api", "customers"}},
	{Path: "/v1/consents", Scopes: []string{"api", "consents"}},
	{Path: "/v1/events", Scopes: []string{"api", "events"}},
	{Path: "/v1/segments", Scopes: []string{"api", "segments"}},
	{Path: "/v1/metadata-schemas", Scopes: []string{"api", "metadata-schemas"}},
	{Path: "/v1/loyalties/members/:memberId/rewards", Scopes: []string{"api", "loyalties", "rewards"}},
	{Path: "/v1/loyalties/members/:memberId/redemption", Scopes: []string{"api", "loyalties"}},
	{Path: "/v1/loyalties/:campaignId/members/:memberId/redemption", Scopes: []string{"api", "loyalties"}},
	{Path: "/v1/loyalties/:campaignId/rewards", Scopes: []string{"api", "loyalties", "rewards"}},
	{Path: "/v1/loyalties/:campaignId/reward-assignments", Scopes: []string{"api", "loyalties", "rewards"}},
	{Path: "/v1/rewards", Scopes: []string{"api", "rewards"}},
	{Path: "/v1/referrals", Scopes: []string{"api", "referrals"}},
	{Path: "/v2/loyalties", Scopes: []string{"api", "loyalties"}},
	{Path: "/v1/loyalties", Scopes: []string{"api", "loyalties"}},
	{Path: "/graphql", Scopes: []string{"api"}},
	// The client-side API: client_api or the operation's own scope, never api.
	{Method: "GET", Path: "/client/v1/validate", Scopes: []string{"client_api", "client_validate"}},
	{Path: "/client/v1/validations", Scopes: []string{"client_api", "client_validations"}},
	{Method: "POST", Path: "/client/v1/qualifications", Scopes: []string{"client_api", "client_qualifications"}},
	{Path: "/client/v1/redeem", Scopes: []string{"client_api", "client_redeem"}},
	{Path: "/client/v1/redemptions", Scopes: []string{"client_api", "client_redemptions"}},
	{Path: "/client/v1/publish", Scopes: []string{"client_api", "client_publish"}},
	{Path: "/client/v1/events", Scopes: []string{"client_api", "client_events"}},
	{Path: "/client/v1/vouchers", Scopes: []string{"client_api", "client_vouchers"}},
	{Path: "/client/v1/consents", Scopes: []string{"client_api", "client_consents"}},
	{Method: "PUT", Path: "/client/v1/customers/:customerId/consents", Scopes: []string{"client_api", "client_consents"}},
	{Path: "/client/v1/customers", Scopes: []string{"client_api", "client_customers"}},
	{Path: "/client/v1", Scopes: []string{"client_api"}},
}

// defaultScopes are required by routes the table does not name.
var defaultScopes = []string{"api"}

// scopesFor returns the scopes that allow a token to call method on the
// route template route (gin's FullPath, e.g. /v1/campaigns/:campaignId).
func scopesFor(method, route string) []string {
	for _, rs := range scopeTable {
		if (rs.Method == "" || rs.Method == method) && routeHasPrefix(route, rs.Path) {
			return rs.Scopes
		}
	}
	return defaultScopes
}

// routeHasPrefix reports whether route starts with the segments of prefix.
func routeHasPrefix(route, prefix string) bool {
	rs := strings.Split(strings.Trim(route, "/"), "/")
	ps := strings.Split(strings.Trim(prefix, "/"), "/")
	if len(rs) < len(ps) {
		return false
	}
	for i, p := range ps {
		if !strings.HasPrefix(p, ":") && p != rs[i] {
			return false
		}
	}
	return true
}

// scopeAllows reports whether a token with the given scopes may call a
// route that accepts any of accepted.
func scopeAllows(have, accepted []string) bool {
	return slices.ContainsFunc(have, func(s string) bool { return slices.Contains(accepted, s) })
}
