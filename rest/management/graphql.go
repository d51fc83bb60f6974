package management

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// RequireGraphQL authenticates /management/graphql with
// management keys (errors in the GraphQL shape) and marks the request so
// the graph's management fields answer. The request has no project viewer:
// project data is reached only through the management fields, each of
// which scopes itself to the project it names.
func RequireGraphQL(c *gin.Context) {
	ctx := c.Request.Context()
	err := access.AuthenticateManagement(ctx, ent.FromContext(ctx),
		c.GetHeader("X-Management-Id"), c.GetHeader("X-Management-Token"))
	if err != nil {
		httpkit.RenderGraphQLError(c, err)
		return
	}
	c.Request = c.Request.WithContext(access.WithManagement(ctx))
	c.Next()
}
