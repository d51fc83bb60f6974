package rest

import (
	"fmt"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
)

// clientProjectKey is where the client authentication leaves the project
// whose client-side settings govern the request.
const clientProjectKey = "promoengine.clientProject"

// clientAccess authenticates the client API (/client/v1): a client-side
// key from a trusted origin (X-Client-Application-Id, X-Client-Token,
// Origin), or an OAuth bearer token whose scope allows the route
// (client_api or the route's client_* scope). Each key (a token: its
// issuing key) is then held to the client API's per-minute limit
// (ratelimit.go). A POST carrying an Idempotency-Key then runs under it
// (see idempotent).
type clientAccess struct{ limiter *rateLimiter }

func (a clientAccess) authenticate(c *gin.Context) {
	ctx := c.Request.Context()
	cl := ent.FromContext(ctx)
	var (
		v   viewer.Viewer
		p   *ent.Project
		err error
	)
	appID, token := c.GetHeader("X-Client-Application-Id"), c.GetHeader("X-Client-Token")
	if bearer, hasBearer := bearerToken(c.Request); hasBearer && appID == "" && token == "" {
		v, p, err = a.bearer(c, bearer)
	} else {
		v, p, err = access.AuthenticateClient(ctx, cl, appID, token, c.GetHeader("Origin"), c.ClientIP())
	}
	if err != nil {
		renderError(c, err)
		return
	}
	if !a.limiter.admit(c, v.ProjectID, v.AppID, renderError) {
		return
	}
	c.Set(clientProjectKey, p)
	c.Request = c.Request.WithContext(viewer.NewContext(ctx, v))
	idempotent(c, renderError) // c.Next under the request's Idempotency-Key
}

// bearer authenticates an OAuth token on the client API.
func (clientAccess) bearer(c *gin.Context, token string) (viewer.Viewer, *ent.Project, error) {
	ctx := c.Request.Context()
	cl := ent.FromContext(ctx)
	v, err := access.AuthenticateBearer(ctx, cl, token, c.ClientIP())
	if err != nil {
		return v, nil, err
	}
	accepted := scopesFor(c.Request.Method, c.FullPath())
	if !scopeAllows(v.Scopes, accepted) {
		return v, nil, apperr.Forbidden(fmt.Sprintf(
			"The access token's scope does not allow this endpoint; it needs one of: %s", strings.Join(accepted, ", ")))
	}
	p, err := access.ClientProject(ctx, cl, v.ProjectID)
	v.Client = true
	return v, p, err
}

// clientProject is the project the client authentication found.
func clientProject(c *gin.Context) *ent.Project {
	p, _ := c.MustGet(clientProjectKey).(*ent.Project)
	return p
}

// requireClientOperation refuses a client API route the project has not
// switched on (403 naming the setting).
func requireClientOperation(op access.ClientOperation) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := access.ClientAllows(clientProject(c), op); err != nil {
			renderError(c, err)
			return
		}
		c.Next()
	}
}
