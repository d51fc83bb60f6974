package openapi

import "net/http"

// Auth says which credentials an operation takes (rest/auth.go,
// rest/client_auth.go, requireManagementKeys).
type Auth int

const (
	authUnset Auth = iota
	// Public routes take no credentials (probes, assets, signed downloads).
	Public
	// AppKeys: X-App-Id and X-App-Token only (the OAuth endpoints).
	AppKeys
	// ServerAPI: application keys, or an OAuth bearer token whose scope
	// allows the route (/v1).
	ServerAPI
	// Loyalty: an OAuth bearer token and the application keys of the same
	// project, both (/v2).
	Loyalty
	// ClientAPI: a client-side key from a trusted origin, or an OAuth bearer
	// token with a client scope (/client/v1).
	ClientAPI
	// Management: X-Management-Id and X-Management-Token (/management/v1).
	Management
)

// Security scheme names in components.securitySchemes.
const (
	schemeAppID           = "appId"
	schemeAppToken        = "appToken"
	schemeOAuth           = "oauth2"
	schemeClientAppID     = "clientAppId"
	schemeClientToken     = "clientToken"
	schemeManagementID    = "managementId"
	schemeManagementToken = "managementToken"
)

type securityScheme struct {
	Type        string      `json:"type"`
	Description string      `json:"description,omitempty"`
	Name        string      `json:"name,omitempty"`
	In          string      `json:"in,omitempty"`
	Flows       *oauthFlows `json:"flows,omitempty"`
}

type oauthFlows struct {
	ClientCredentials *oauthFlow `json:"clientCredentials"`
}

type oauthFlow struct {
	TokenURL string            `json:"tokenUrl"`
	Scopes   map[string]string `json:"scopes"`
}

// oauthScopes are the scope values a token may carry (interface, OAuth
// token); docs/security.md says which route needs which.
var oauthScopes = []string{"api", "assets", "async-actions", "campaigns", "categories", "client_api",
	"client_consents", "client_customers", "client_events", "client_promotions", "client_publish",
	"client_qualifications", "client_redeem", "client_redemptions", "client_validate", "client_validations",
	"client_vouchers", "consents", "customers", "events", "exports", "locations", "loyalties",
	"metadata-schemas", "orders", "product-collections", "products", "promotions", "publications",
	"qualifications", "redemptions", "referrals", "rewards", "segments", "skus", "task-results",
	"templates", "trash-bin", "validation-rules-assignments", "validation-rules", "validations", "vouchers"}

func securitySchemes() map[string]*securityScheme {
	apiKey := func(header, desc string) *securityScheme {
		return &securityScheme{Type: "apiKey", In: "header", Name: header, Description: desc}
	}
	scopes := map[string]string{}
	for _, s := range oauthScopes {
		scopes[s] = s
	}
	scopes["api"] = "the whole server-side API"
	scopes["client_api"] = "the whole client-side API"
	return map[string]*securityScheme{
		schemeAppID:    apiKey("X-App-Id", "Application (server-side) key id; always sent with X-App-Token."),
		schemeAppToken: apiKey("X-App-Token", "Application (server-side) key secret; always sent with X-App-Id."),
		schemeOAuth: {Type: "oauth2", Description: "Authorization: Bearer <access_token>. Tokens come from " +
			"POST /v1/oauth/token (client credentials, authenticated with X-App-Id and X-App-Token), " +
			"inherit the issuing key's permissions, may be narrowed with scope and expire after 900 s.",
			Flows: &oauthFlows{ClientCredentials: &oauthFlow{TokenURL: "/v1/oauth/token", Scopes: scopes}}},
		schemeClientAppID: apiKey("X-Client-Application-Id", "Client-side key id; the request's Origin "+
			"must be one of the project's client_trusted_domains."),
		schemeClientToken:     apiKey("X-Client-Token", "Client-side key secret."),
		schemeManagementID:    apiKey("X-Management-Id", "Management key id; always sent with X-Management-Token."),
		schemeManagementToken: apiKey("X-Management-Token", "Management key secret."),
	}
}

// security lists the alternative credential sets of an operation: every
// scheme of one set is needed; any one set will do. A bearer token's
// alternatives are one set per scope that allows the route.
func (a Auth) security(scopes func(method, route string) []string, method, path string) []map[string][]string {
	bearer := func(extra map[string][]string) []map[string][]string {
		var names []string
		if scopes != nil {
			names = scopes(method, pathParam.ReplaceAllString(path, ":$1"))
		}
		if len(names) == 0 {
			names = []string{}
		}
		var out []map[string][]string
		for _, s := range names {
			set := map[string][]string{schemeOAuth: {s}}
			for k, v := range extra {
				set[k] = v
			}
			out = append(out, set)
		}
		if len(out) == 0 {
			set := map[string][]string{schemeOAuth: {}}
			for k, v := range extra {
				set[k] = v
			}
			out = append(out, set)
		}
		return out
	}
	appKeys := map[string][]string{schemeAppID: {}, schemeAppToken: {}}
	switch a {
	case AppKeys:
		return []map[string][]string{appKeys}
	case ServerAPI:
		return append([]map[string][]string{appKeys}, bearer(nil)...)
	case Loyalty:
		return bearer(appKeys)
	case ClientAPI:
		return append([]map[string][]string{{schemeClientAppID: {}, schemeClientToken: {}}}, bearer(nil)...)
	case Management:
		return []map[string][]string{{schemeManagementID: {}, schemeManagementToken: {}}}
	}
	return []map[string][]string{}
}

// errorStatuses are the failures every operation of the kind can answer:
// missing or wrong credentials (401), a refused scope, origin or address
// (403), the key's rate limit (429).
func (a Auth) errorStatuses() []int {
	switch a {
	case AppKeys:
		return []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests}
	case ServerAPI, Loyalty, ClientAPI:
		return []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests}
	case Management:
		return []int{http.StatusUnauthorized}
	}
	return nil
}

// rateLimited says whether answers carry the rate-limit headers.
func (a Auth) rateLimited() bool {
	return a == AppKeys || a == ServerAPI || a == Loyalty || a == ClientAPI
}

// idempotent says whether a POST honours Idempotency-Key.
func (a Auth) idempotent() bool { return a == ServerAPI || a == Loyalty || a == ClientAPI }

var idempotencyKey = Param{Name: "Idempotency-Key", Schema: String().Length(1, 255),
	Description: "Makes the POST idempotent for 24 hours: a retry with the same key, credential and request " +
		"gets the first answer (with Idempotent-Replayed: true); see docs/idempotency.md."}

// success is a success response of an operation of kind a.
func (a Auth) success(description string, body *Schema, contentType string) *response {
	r := &response{Description: description, Headers: map[string]*header{
		"X-Request-Id": {Ref: "#/components/headers/RequestId"}}}
	if a.rateLimited() {
		r.Headers["X-Rate-Limit-Limit"] = &header{Ref: "#/components/headers/RateLimitLimit"}
		r.Headers["X-Rate-Limit-Remaining"] = &header{Ref: "#/components/headers/RateLimitRemaining"}
	}
	if a.idempotent() {
		r.Headers["Idempotent-Replayed"] = &header{Ref: "#/components/headers/IdempotentReplayed"}
	}
	switch {
	case contentType != "":
		r.Content = map[string]*mediaType{contentType: {}}
	case body != nil:
		r.Content = map[string]*mediaType{"application/json": {Schema: body}}
	}
	return r
}
