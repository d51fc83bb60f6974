package rest

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
)

// authMode says which credentials a route accepts (interface section
// Authentication).
type authMode int

const (
	// appKeysOnly: X-App-Id + X-App-Token (e.g. the OAuth endpoints).
	appKeysOnly authMode = iota
	// appKeysOrBearer: application keys, or Authorization: Bearer with an
	// OAuth token whose scope allows the route (scopeTable).
	appKeysOrBearer
	// bearerAndAppKeys: both, of the same project (all /v2 endpoints).
	bearerAndAppKeys
)

// requireAppKeys authenticates X-App-Id + X-App-Token only.
func requireAppKeys(render func(*gin.Context, error)) gin.HandlerFunc {
	return authenticate(appKeysOnly, render)
}

// authenticate checks the request's credentials for mode and puts the
// viewer (project, key and — for a bearer token — scopes) into the request
// context; every project-owned query below is then scoped to that project
// by the data layer. When a bearer token authenticates, the route must be
// allowed by its scope (403 forbidden otherwise). When both a token and
// application keys are sent, both must be valid and of the same project.
// render writes errors in the transport's own shape. Every authenticated
// request counts against its key's rate limit (ratelimit.go). A POST
// carrying an Idempotency-Key then runs under it (see idempotent).
func authenticate(mode authMode, render func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := credentials(c, mode)
		if err != nil {
			render(c, err)
			return
		}
		if !serverRateLimiter(c).admit(c, v.ProjectID, v.AppID, render) {
			return
		}
		if v.TokenID != "" {
			accepted := scopesFor(c.Request.Method, c.FullPath())
			if !scopeAllows(v.Scopes, accepted) {
				render(c, apperr.Forbidden(fmt.Sprintf(
					"The access token's scope does not allow this endpoint; it needs one of: %s",
					strings.Join(accepted, ", "))))
				return
			}
		}
		v.NamedChannel = namedChannel(c)
		c.Request = c.Request.WithContext(viewer.NewContext(c.Request.Context(), v))
		idempotent(c, render) // c.Next under the request's Idempotency-Key
	}
}

// credentials authenticates what the request carries according to mode.
func credentials(c *gin.Context, mode authMode) (viewer.Viewer, error) {
	ctx := c.Request.Context()
	client := ent.FromContext(ctx)
	appID, appToken := c.GetHeader("X-App-Id"), c.GetHeader("X-App-Token")
	bearer, hasBearer := bearerToken(c.Request)
	hasKeys := appID != "" || appToken != ""

	switch {
	case mode == appKeysOnly, mode == appKeysOrBearer && !hasBearer:
		return access.AuthenticateApp(ctx, client, appID, appToken, c.ClientIP())
	case mode == bearerAndAppKeys && (!hasBearer || !hasKeys):
		return viewer.Viewer{}, apperr.Unauthorized()
	}
	tv, err := access.AuthenticateBearer(ctx, client, bearer, c.ClientIP())
	if err != nil || !hasKeys {
		return tv, err
	}
	kv, err := access.AuthenticateApp(ctx, client, appID, appToken, c.ClientIP())
	if err != nil {
		return viewer.Viewer{}, err
	}
	if kv.ProjectID != tv.ProjectID {
		return viewer.Viewer{}, apperr.Unauthorized()
	}
	return tv, nil
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header; ok is false when there is no Authorization header. Any other
// scheme yields ok with an empty token (refused by AuthenticateBearer).
func bearerToken(r *http.Request) (token string, ok bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, rest, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(rest), true
}
