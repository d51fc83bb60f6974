package rest

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/origin"
)

// Cross-origin access for browsers. Two audiences:
//   - the client API (/client/v1/…): origins some project trusts
//     (client_trusted_domains); each request is then checked against its
//     own key's project by the client authentication;
//   - the server API and GraphQL (/graphql, /v1, /v2): the installation's
//     PROMO_CORS_ORIGINS (none by default: no browser access).
//
// The management API, playground and probes are never offered to other
// origins. Credentials travel in headers, never cookies, so
// Access-Control-Allow-Credentials is not sent; Access-Control-Allow-Origin
// always echoes the one allowed origin, never "*".

const (
	corsAllowMethods = "GET, POST, PUT, DELETE, OPTIONS"
	corsAllowHeaders = "Authorization, Content-Type, X-App-Id, X-App-Token, X-Client-Application-Id, X-Client-Token, " +
		"X-Voucherify-Channel, X-Voucherify-API-Version, X-Voucherify-Double-Opt-In, Idempotency-Key, X-Request-Id"
	corsExposeHeaders = "X-Request-Id, Retry-After, Idempotent-Replayed, X-Rate-Limit-Limit, X-Rate-Limit-Remaining"
	corsMaxAge        = "600"
)

// corsPolicy decides which origins may call which part of the service.
type corsPolicy struct {
	// serverOrigins are the normalized PROMO_CORS_ORIGINS.
	serverOrigins []string
	// clientOrigins knows every project's trusted domains.
	clientOrigins *access.TrustedOrigins
}

// newCORSPolicy checks the configured server-API origins (origin forms of
// package origin).
func newCORSPolicy(serverOrigins []string, clientOrigins *access.TrustedOrigins) (corsPolicy, error) {
	norm, err := origin.Normalize(serverOrigins)
	if err != nil {
		return corsPolicy{}, err
	}
	return corsPolicy{serverOrigins: norm, clientOrigins: clientOrigins}, nil
}

// handle answers preflights and marks responses readable by allowed origins.
func (p corsPolicy) handle(c *gin.Context) {
	o := c.GetHeader("Origin")
	if o == "" {
		c.Next()
		return
	}
	audience, offered := corsAudience(c.Request.URL.Path)
	if !offered {
		c.Next()
		return
	}
	c.Writer.Header().Add("Vary", "Origin")
	allowed := false
	if audience == "client" {
		ok, err := p.clientOrigins.AnyTrusts(c.Request.Context(), ent.FromContext(c.Request.Context()), o)
		if err != nil {
			renderError(c, err)
			return
		}
		allowed = ok
	} else {
		allowed = origin.Trusted(p.serverOrigins, o)
	}
	preflight := c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != ""
	if !allowed {
		if preflight {
			renderError(c, apperr.Forbidden("Origin "+o+" may not call this API from a browser"))
			return
		}
		c.Next()
		return
	}
	h := c.Writer.Header()
	h.Set("Access-Control-Allow-Origin", o)
	if preflight {
		h.Add("Vary", "Access-Control-Request-Method")
		h.Add("Vary", "Access-Control-Request-Headers")
		h.Set("Access-Control-Allow-Methods", corsAllowMethods)
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
		c.AbortWithStatus(http.StatusNoContent)
		return
	}
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	c.Next()
}

// corsAudience says which origins a path is offered to: "client" (the
// client API) or "server" (GraphQL and the server API).
func corsAudience(path string) (audience string, offered bool) {
	switch {
	case strings.HasPrefix(path, "/client/v1/"):
		return "client", true
	case path == "/graphql", strings.HasPrefix(path, "/v1/"), strings.HasPrefix(path, "/v2/"):
		return "server", true
	}
	return "", false
}
